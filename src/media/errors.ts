// What a media tool said, for MediaError messages (src/errors.ts): which file, and ffmpeg's last word.

export { MediaError } from '../errors.ts';

/** The last line of a tool's stderr that says something (ffmpeg ends with the reason it stopped). */
export function lastLine(stderr: string): string {
  const lines = stderr.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  return lines[lines.length - 1] ?? '';
}

/** What ffmpeg said about `file`, without the "file: " it starts its line with. */
export function ffmpegSays(file: string, stderr: string): string {
  const line = lastLine(stderr);
  const said = line.startsWith(`${file}: `) ? line.slice(file.length + 2) : line;
  return said ? `ffmpeg says "${said}"` : 'ffmpeg said nothing';
}
