// report.json and report.md on disk, redacted: what a run writes at its end, and what a run that
// could not end normally writes from its rebuilt report (read-transcript.ts).
import fs from 'node:fs';
import path from 'node:path';
import { reportJson } from './fold.js';
import type { Redactor } from './redact.js';
import { renderMarkdown } from './render-markdown.js';
import type { Report } from './report.js';

/** Writes both files into `dir`; returns the Markdown (the GitHub step summary takes it too). */
export function writeReportFiles(dir: string, report: Report, redactor: Redactor): string {
  const markdown = redactor.redact(renderMarkdown(report));
  fs.writeFileSync(path.join(dir, 'report.json'), redactor.redact(reportJson(report)));
  fs.writeFileSync(path.join(dir, 'report.md'), markdown);
  return markdown;
}
