/**
 * Bench results: a section per bench (a table, notes, or captured text for the tinybench
 * micro-benches), printed to the console and rendered as one Markdown document.
 */
import { cpus, loadavg, totalmem } from 'node:os';

export interface Table {
  caption?: string;
  rows: Record<string, unknown>[];
}

export interface Section {
  id: string;
  title: string;
  tables: Table[];
  notes: string[];
  /** Captured output of a bench that prints its own tables (shown as a code block). */
  text?: string;
  /** Wall time of the section, filled in by the runner. */
  seconds?: number;
}

/** One row per tinybench task: its latency p50, p99, min and mean in ms (two decimals). */
export function latencyRows(tasks: readonly { name: string; result?: unknown }[]): { task: string; 'p50 ms': string; 'p99 ms': string; 'min ms': string; 'mean ms': string }[] {
  return tasks.map((t) => {
    const r = t.result as { latency?: { p50?: number; p99?: number; mean?: number; min?: number } } | undefined;
    const ms = (v: number | undefined) => v?.toFixed(2) ?? '-';
    return { task: t.name, 'p50 ms': ms(r?.latency?.p50), 'p99 ms': ms(r?.latency?.p99), 'min ms': ms(r?.latency?.min), 'mean ms': ms(r?.latency?.mean) };
  });
}

export function ratio(n: number): string {
  return Number.isFinite(n) ? `${n.toFixed(2)}×` : 'n/a';
}

export function printSection(s: Section): void {
  console.log(`\n## ${s.title}`);
  for (const t of s.tables.filter((x) => x.rows.length > 0)) {
    if (t.caption) console.log(t.caption);
    console.table(t.rows);
  }
  if (s.text) console.log(s.text);
  for (const n of s.notes) console.log(`- ${n}`);
}

function cell(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'n/a';
  return String(v).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function markdownTable(rows: readonly Record<string, unknown>[]): string {
  if (rows.length === 0) return '';
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const lines = [`| ${cols.join(' | ')} |`, `|${cols.map((c) => (typeof rows[0]![c] === 'number' ? ' ---: ' : ' --- ')).join('|')}|`];
  for (const r of rows) lines.push(`| ${cols.map((c) => cell(r[c])).join(' | ')} |`);
  return lines.join('\n');
}

/** What the numbers were measured on, and how busy it was (two cores shared by everyone). */
export function machineLine(): string {
  const c = cpus();
  const [l1, l5] = loadavg();
  return `${c.length} × ${c[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average ${l1!.toFixed(2)} (1 min), ${l5!.toFixed(2)} (5 min)`;
}

export function toMarkdown(sections: readonly Section[], startLoad: string, endLoad: string, totalSeconds: number): string {
  const out = [
    '# Gleaner benchmark results',
    '',
    `Run finished ${new Date().toISOString()}, took ${totalSeconds.toFixed(0)} s.`,
    `Machine at start: ${startLoad}.`,
    `Machine at end: ${endLoad}.`,
    'Every ratio compares two contenders measured in this same run; numbers from a busy machine are noisy.',
  ];
  for (const s of sections) {
    out.push('', `## ${s.title}`, '');
    for (const t of s.tables.filter((x) => x.rows.length > 0)) {
      if (t.caption) out.push(t.caption, '');
      out.push(markdownTable(t.rows), '');
    }
    if (s.text) out.push('```', s.text.trimEnd(), '```', '');
    for (const n of s.notes) out.push(`- ${n}`);
    if (s.seconds !== undefined) out.push(`- section time: ${s.seconds.toFixed(0)} s`);
  }
  return `${out.join('\n')}\n`;
}
