/**
 * The scorecard's place in BENCHMARKS.md (pure): a "Tank simulator scorecard" section first in
 * the current figures, replaced on each run rather than appended, since it is deterministic.
 */
export const SCORECARD_HEADING = '### Tank simulator scorecard';
const CURRENT_FIGURES = '## Current figures';

const headingLevel = (line: string) => /^(#{1,6}) /.exec(line)?.[1].length;

/** The markdown with the section (heading included in `section`) put in place of the old one, or first under the current figures. */
export function withScorecardSection(markdown: string, section: string): string {
  const lines = markdown.split('\n');
  const block = [...section.trimEnd().split('\n'), ''];
  const old = lines.findIndex((line) => line.trimEnd() === SCORECARD_HEADING);
  if (old >= 0) {
    let end = old + 1;
    while (end < lines.length && !((headingLevel(lines[end]) ?? 9) <= 3)) end++;
    lines.splice(old, end - old, ...block);
    return lines.join('\n');
  }
  const figures = lines.findIndex((line) => line.trimEnd() === CURRENT_FIGURES);
  if (figures < 0) return `${markdown.trimEnd()}\n\n${CURRENT_FIGURES}\n\n${block.join('\n')}`;
  let at = figures + 1;
  while (at < lines.length && headingLevel(lines[at]) === undefined) at++;
  lines.splice(at, 0, ...block);
  return lines.join('\n');
}
