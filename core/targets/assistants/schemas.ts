/** JSON Schemas of the assistants' `results[].json` (parse.ts), merged into OUTPUT_SCHEMAS. */
import { arr, obj, str, strN, type Schema } from '../schema-kit.js';

const chat = (name: string): Schema =>
  obj(
    {
      prompt: { ...str, description: 'The question as asked.' },
      response_text: { ...str, description: 'The answer as the assistant sent it (from its stream when the page has one).' },
      markdown_text: { ...str, description: "The answer's HTML as Markdown (lists, code, links kept)." },
      model: { ...strN, description: 'The model that answered, when the page names it.' },
      citations: arr(obj({ url: str, title: str, text: str }), 'Sources the answer cites.'),
      links: arr(obj({ url: str, text: str }), 'Links in the answer, once each.'),
    },
    `An ${name} answer.`,
  );

const block = {
  anyOf: [
    str,
    obj({ list: arr(arr(str)) }),
    obj({ table: arr(obj({ table_columns: arr(arr(str)), table_rows: arr(arr(arr(str))) })) }),
  ],
};

export const ASSISTANT_OUTPUT_SCHEMAS: Record<string, Schema> = {
  llm1: chat('llm1'),
  llm2: chat('llm2'),
  llm3: obj(
    {
      prompt_query: str,
      model: strN,
      url: { ...str, description: 'The result page the question led to.' },
      answer_results: arr(block, 'The answer: paragraphs as strings, lists and tables as objects.'),
      answer_results_md: { ...str, description: 'The answer as Markdown.' },
      related_queries: arr(str),
      additional_results: obj({ sources_results: arr(obj({ url: str, title: str, domain: str }), 'Cited sources.') }),
    },
    'An llm3 answer with cited sources and related questions.',
  ),
};
