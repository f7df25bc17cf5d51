/** `se1/aimode`: the AI Mode answer page (answer text, cited sources, links in the answer). */
import type { PageInput, Parsed } from '../../../parsers/types.js';
import { Blocks } from '../../../parsers/blocks.js';
import { loadHtml } from '../../../parsers/dom.js';
import { parseAiMode } from './aio.js';
import { pageQuery } from './search.js';

export function parseSe1AiMode(input: PageInput): Parsed {
  const doc = loadHtml(input.html);
  const b = new Blocks();
  const answer = b.run('answer', () => parseAiMode(doc, input.url), null);
  const json = {
    query: pageQuery(doc, input.params),
    answer_text: answer?.answer ?? null,
    citations: answer?.citations ?? [],
    links: answer?.links ?? [],
  };
  return { json, status: b.status(answer !== null) };
}
