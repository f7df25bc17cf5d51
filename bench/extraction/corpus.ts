/**
 * The offline-extraction corpus: hand-written pages that follow the markup of real sites, each
 * with several schemas and the values a reader of the page would give — including fields the
 * page does not have, which must stay unfilled. `npm run eval:extraction` prints the scores;
 * test/unit/extraction-eval.test.ts holds precision at 95 % or more in CI.
 */
import { ARTICLE_PAGES } from './pages-articles.js';
import { COMMERCE_PAGES } from './pages-commerce.js';
import { HELDOUT_PAGES } from './pages-heldout.js';
import { LIST_PAGES } from './pages-lists.js';
import { PLACE_PAGES } from './pages-places.js';
import type { PageCase } from './score.js';

export const CORPUS: readonly PageCase[] = [...COMMERCE_PAGES, ...ARTICLE_PAGES, ...PLACE_PAGES, ...LIST_PAGES, ...HELDOUT_PAGES];
