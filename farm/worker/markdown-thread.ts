/**
 * Entry of a render thread's Markdown helper thread (markdown-helper.ts, a Piscina pool of one):
 * a page's text in, its Markdown out. Pure: no state between tasks, nothing else loaded.
 */
import { htmlToMarkdown } from '../../core/markdown/index.js';

/** What the render thread sends. */
export interface MarkdownAsk {
  html: string;
  url: string;
}

export default function convert(ask: MarkdownAsk): string {
  return htmlToMarkdown(ask.html, ask.url);
}
