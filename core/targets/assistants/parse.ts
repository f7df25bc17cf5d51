/**
 * Parsers of the assistants' answers (output-shapes.md §4, spec 2.3). The farm's browser
 * script keeps what it read by selector as `parts.capture` (one JSON text: the answer's HTML
 * and text, the model, citations, sources, related questions) and the streamed response, when
 * the page has one, as `parts.stream`. The streamed text is preferred to the rendered one (it
 * is what the assistant sent, not a half-rendered page); the Markdown comes from the answer's
 * HTML through the project's converter. Pure; never throws.
 */
import { htmlToMarkdown } from '../../markdown/index.js';
import { all, hostOf, loadHtml, text, type Element } from '../../parsers/dom.js';
import type { PageInput, Parsed } from '../../parsers/types.js';
import { readEventStream } from './stream.js';

type Fields = Record<string, string | null>;

interface Captured {
  answer_html: string | null;
  answer_text: string | null;
  model: string | null;
  citations: Fields[];
  sources: Fields[];
  related: string[];
}

function captured(input: PageInput): Captured {
  let raw: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(input.parts?.capture?.[0] ?? '{}');
    if (v && typeof v === 'object' && !Array.isArray(v)) raw = v as Record<string, unknown>;
  } catch {
    // a capture that is not JSON reads as nothing found
  }
  const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);
  const items = (v: unknown): Fields[] => (Array.isArray(v) ? v.filter((x): x is Fields => !!x && typeof x === 'object') : []);
  return {
    answer_html: s(raw.answer_html),
    answer_text: s(raw.answer_text),
    model: s(raw.model)?.trim() ?? null,
    citations: items(raw.citations),
    sources: items(raw.sources),
    related: Array.isArray(raw.related) ? raw.related.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim()) : [],
  };
}

const markdownOf = (html: string | null, url: string): string => (html ? htmlToMarkdown(html, url, { mainContent: false }).trim() : '');

/** Links in the answer, once each, in order: `[{url, text}]`. */
function linksOf(html: string | null, url: string): Array<{ url: string; text: string }> {
  if (!html) return [];
  const seen = new Set<string>();
  const out: Array<{ url: string; text: string }> = [];
  for (const a of all('a[href]', loadHtml(html))) {
    const href = absolute(a.attribs.href, url);
    if (!href || seen.has(href)) continue;
    seen.add(href);
    out.push({ url: href, text: text(a) });
  }
  return out;
}

function absolute(href: string | undefined | null, base: string): string | null {
  if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return null;
  try {
    return new URL(href, base).toString();
  } catch {
    return null;
  }
}

/** `llm1` and `llm2`: response_text, markdown_text, model, citations, links. */
export function parseChatAnswer(input: PageInput): Parsed {
  const cap = captured(input);
  const streamed = input.parts?.stream?.length ? readEventStream(input.parts.stream.join('\n\n')) : undefined;
  const response = streamed?.text ? streamed.text : (cap.answer_text ?? '');
  const model = streamed?.model ?? cap.model;
  const citations = cap.citations
    .map((c) => ({ url: absolute(c.url, input.url), title: c.title?.trim() ?? '', text: c.text?.trim() ?? '' }))
    .filter((c): c is { url: string; title: string; text: string } => c.url !== null);
  const json = {
    prompt: typeof input.params.query === 'string' ? input.params.query : '',
    response_text: response,
    markdown_text: markdownOf(cap.answer_html, input.url) || response,
    model,
    citations,
    links: linksOf(cap.answer_html, input.url),
  };
  return { json, status: response.trim() ? 'parsed' : 'unrecognised' };
}

const kids = (el: Element, name: string): Element[] => el.children.filter((c): c is Element => c.type === 'tag' && c.name === name);

type AnswerBlock = string | { list: string[][] } | { table: Array<{ table_columns: string[][]; table_rows: string[][][] }> };

/** The answer's blocks as the reference gives them: paragraphs as strings, lists, tables. */
function blocksOf(html: string | null): AnswerBlock[] {
  if (!html) return [];
  const out: AnswerBlock[] = [];
  const walk = (nodes: readonly Element[]) => {
    for (const el of nodes) {
      const name = el.name;
      if (name === 'ul' || name === 'ol') out.push({ list: [kids(el, 'li').map((li) => text(li))] });
      else if (name === 'table') {
        const columns = all('th', el).filter((th) => !all('td', th.parent as Element).length).map((th) => text(th));
        const rows = all('tr', el)
          .map((tr) => kids(tr, 'td'))
          .filter((cells) => cells.length > 0)
          .map((cells) => cells.map((td) => [text(td)]));
        out.push({ table: [{ table_columns: [columns], table_rows: rows }] });
      } else if (name === 'div' || name === 'section') walk(el.children.filter((c): c is Element => c.type === 'tag'));
      else {
        const t = text(el);
        if (t) out.push(t);
      }
    }
  };
  const doc = loadHtml(`<div id="answer-root">${html}</div>`);
  const root = all('#answer-root', doc)[0];
  if (root) walk(root.children.filter((c): c is Element => c.type === 'tag'));
  return out;
}

/** `llm3`: answer_results (blocks), answer_results_md, related_queries, sources with url, title, domain. */
export function parseSearchAnswer(input: PageInput): Parsed {
  const cap = captured(input);
  const sources = cap.sources
    .map((s) => {
      const url = absolute(s.url, input.url);
      return url ? { url, title: s.title?.trim() ?? '', domain: s.domain?.trim() || hostOf(url).replace(/^www\./, '') } : null;
    })
    .filter((s): s is { url: string; title: string; domain: string } => s !== null);
  const answer = blocksOf(cap.answer_html);
  const json = {
    prompt_query: typeof input.params.query === 'string' ? input.params.query : '',
    model: cap.model,
    url: input.url,
    answer_results: answer.length ? answer : cap.answer_text ? [cap.answer_text] : [],
    answer_results_md: markdownOf(cap.answer_html, input.url) || (cap.answer_text ?? ''),
    related_queries: cap.related,
    additional_results: { sources_results: sources },
  };
  return { json, status: json.answer_results.length ? 'parsed' : 'unrecognised' };
}
