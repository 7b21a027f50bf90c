// A monotonic clock in milliseconds, for durations. Not `performance.now()`: the first use of the
// `performance` global loads perf_hooks (nine builtin modules), and the run loop times its first
// model request before anything else needs them.
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
