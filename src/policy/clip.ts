/** `text` on one line (newlines shown as \n), cut to `max` characters: how a reason quotes a command or URL. */
export function clip(text: string, max = 120): string {
  const oneLine = text.replace(/\n/g, '\\n');
  return oneLine.length > max ? `${oneLine.slice(0, max - 3)}...` : oneLine;
}
