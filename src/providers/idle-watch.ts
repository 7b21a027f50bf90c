// A stream that stops sending is abandoned, not waited on forever: the watch aborts its signal
// when no data has arrived for `ms`; the provider re-arms it on every chunk.
export class IdleWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  fired = false;
  readonly signal = this.controller.signal;

  constructor(readonly ms: number) {}

  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort();
    }, this.ms);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
