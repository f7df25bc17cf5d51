/**
 * What the simulated assistants answer, as a pure function of the question, so tests compute
 * the expected outputs independently of the pages. A question carrying `[sim:<mode>]` asks a
 * page for a failure mode: `login`, `challenge` (never clears), `challenge-clears`,
 * `rate-limit`, `endless` (the answer never completes), `changed` (the answer is rendered
 * where the shipped selectors do not look) or `slow` (llm1 starts answering after 4 s).
 */
export type SimMode = 'ok' | 'login' | 'challenge' | 'challenge-clears' | 'rate-limit' | 'endless' | 'changed' | 'slow';

export function modeOf(question: string): SimMode {
  const m = /\[sim:([a-z-]+)\]/.exec(question)?.[1];
  return m === 'login' || m === 'challenge' || m === 'challenge-clears' || m === 'rate-limit' || m === 'endless' || m === 'changed' || m === 'slow' ? m : 'ok';
}

export function slugOf(question: string): string {
  return (
    question
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'q'
  );
}

export interface Citation {
  url: string;
  title: string;
  text: string;
}

/** llm1's answer as Markdown source (what its stream carries); `search` adds web sources. */
export function llm1Answer(question: string, search: boolean | undefined): { markdown: string; citations: Citation[]; model: string } {
  const slug = slugOf(question);
  const lead = search ? 'According to current web sources' : 'From what I know';
  const markdown = [
    `${lead}, here is an answer about **${slug}**.`,
    '',
    '- First, read the [guide](https://docs.example.org/' + slug + ').',
    '- Second, try the example below.',
    '',
    '```js',
    `console.log("${slug}");`,
    '```',
    '',
    'That is all.',
  ].join('\n');
  const citations = search
    ? [
        { url: `https://news.example.org/${slug}`, title: `News on ${slug}`, text: `A report about ${slug}.` },
        { url: `https://wiki.example.net/${slug}`, title: `${slug} explained`, text: 'Background and history.' },
      ]
    : [];
  return { markdown, citations, model: search ? 'sim-4o-search' : 'sim-4o' };
}

/** llm2's answer as HTML (rendered word by word) and the model its page names. */
export function llm2Answer(question: string): { html: string; citations: Citation[]; model: string } {
  const slug = slugOf(question);
  const html =
    `<p>Here is a short answer on <b>${slug}</b>.</p>` +
    `<ol><li>Open the <a href="https://help.example.com/${slug}">help page</a>.</li><li>Run the command.</li></ol>` +
    `<pre><code class="language-sh">echo ${slug}</code></pre>`;
  return { html, citations: [{ url: `https://help.example.com/${slug}`, title: `Help: ${slug}`, text: 'The help page.' }], model: '2.5 Sim' };
}

/** llm3's result page: answer HTML, cited sources and related questions. */
export function llm3Answer(question: string): { html: string; sources: Array<{ url: string; title: string; domain: string }>; related: string[]; model: string } {
  const slug = slugOf(question);
  const html =
    `<p>The short answer about ${slug} is yes [1].</p>` +
    `<ul><li>It is well documented [2].</li><li>It is <a href="https://source-one.example.org/${slug}">widely used</a>.</li></ul>` +
    `<table><thead><tr><th>Option</th><th>Cost</th></tr></thead><tbody><tr><td>Basic</td><td>Free</td></tr><tr><td>Pro</td><td>10</td></tr></tbody></table>`;
  return {
    html,
    sources: [
      { url: `https://source-one.example.org/${slug}`, title: `Source one on ${slug}`, domain: 'source-one.example.org' },
      { url: `https://www.source-two.example.com/${slug}`, title: 'Source two', domain: 'source-two.example.com' },
    ],
    related: [`What is ${slug}?`, `How much does ${slug} cost?`],
    model: 'turbo',
  };
}
