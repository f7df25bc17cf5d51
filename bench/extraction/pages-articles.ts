/**
 * Extraction corpus: articles, a blog post, a recipe and a documentation page, written after
 * the markup of real publishers (content made up). Traps: prices and numbers mentioned in
 * prose, related-story lists with their own dates and bylines, sidebars.
 */
import { ABSENT, type PageCase } from './score.js';

const html = (head: string, body: string): string => `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
const ld = (data: unknown): string => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

const ARTICLE = {
  type: 'object',
  properties: {
    headline: { type: 'string' },
    author: { type: 'string' },
    published: { type: 'string', format: 'date' },
    modified: { type: 'string', format: 'date' },
    publisher: { type: 'string' },
    description: { type: 'string' },
    image: { type: 'string', format: 'uri' },
  },
};
/** Fields no article here states. */
const NOT_IN_ARTICLES = {
  type: 'object',
  properties: { price: { type: 'number' }, rating: { type: 'number' }, sku: { type: 'string' }, phone: { type: 'string' }, in_stock: { type: 'boolean' }, review_count: { type: 'integer' } },
};
const absentInArticles = { price: ABSENT, rating: ABSENT, sku: ABSENT, phone: ABSENT, in_stock: ABSENT, review_count: ABSENT };

const relatedStories = `<aside class="related"><h2>More from Science</h2><ul>${[
  ['Glaciers retreat faster than modelled', '2024-02-11', 'Ivo Brandt'],
  ['A new map of the ocean floor', '2024-01-29', 'Lena Ott'],
  ['Why spring comes earlier', '2024-01-15', 'Ivo Brandt'],
]
  .map(([t, d, a]) => `<li class="story"><a href="/science/${d}"><img src="/thumbs/${d}.jpg" alt=""><h3>${t}</h3></a><time datetime="${d}">${d}</time><span class="byline">By ${a}</span></li>`)
  .join('')}</ul></aside>`;

export const ARTICLE_PAGES: PageCase[] = [
  {
    id: 'news-article-jsonld',
    follows: 'news site article: JSON-LD NewsArticle with author and publisher objects, OpenGraph, byline, related stories aside',
    url: 'https://dailyplanet.example/science/2024/03/04/coral-reefs-recover',
    html: html(
      `<title>Coral reefs recover after a decade of protection | The Daily Planet</title>` +
        `<meta name="description" content="Protected reefs in the Coral Sea show a 30% rise in live coral cover.">` +
        `<meta property="og:title" content="Coral reefs recover after a decade of protection"><meta property="og:image" content="https://dailyplanet.example/img/reef.jpg">` +
        `<meta property="article:published_time" content="2024-03-04T07:00:00Z"><meta property="article:section" content="Science">` +
        ld({
          '@context': 'https://schema.org',
          '@type': 'NewsArticle',
          headline: 'Coral reefs recover after a decade of protection',
          image: ['https://dailyplanet.example/img/reef.jpg'],
          datePublished: '2024-03-04T07:00:00Z',
          dateModified: '2024-03-05T09:12:00Z',
          author: [{ '@type': 'Person', name: 'Maya Kerr', url: 'https://dailyplanet.example/authors/maya-kerr' }],
          publisher: { '@type': 'Organization', name: 'The Daily Planet', logo: { '@type': 'ImageObject', url: 'https://dailyplanet.example/logo.png' } },
        }),
      `<header class="site-header"><a class="logo" href="/">The Daily Planet</a><nav><a href="/science">Science</a> <a href="/subscribe">Subscribe for $4.99 a month</a></nav></header>` +
        `<main><article><h1>Coral reefs recover after a decade of protection</h1><p class="byline">By <a href="/authors/maya-kerr">Maya Kerr</a>, science correspondent</p>` +
        `<time datetime="2024-03-04T07:00:00Z">4 March 2024</time><p>Ten years after fishing was banned across 40,000 square kilometres, divers counted 30% more live coral.</p>` +
        `<p>The survey, which cost about $2 million, covered 112 reefs and rated each on a scale of 1 to 5.</p></article>${relatedStories}</main>` +
        `<footer><p>© The Daily Planet 2024. Newsroom: +1 555 0199</p></footer>`,
    ),
    schemas: [
      {
        name: 'article',
        schema: ARTICLE,
        expected: {
          headline: 'Coral reefs recover after a decade of protection', author: 'Maya Kerr', published: '2024-03-04', modified: '2024-03-05', publisher: 'The Daily Planet',
          description: 'Protected reefs in the Coral Sea show a 30% rise in live coral cover.', image: 'https://dailyplanet.example/img/reef.jpg',
        },
      },
      { name: 'traps', schema: NOT_IN_ARTICLES, expected: absentInArticles },
      {
        name: 'section and title',
        schema: { type: 'object', properties: { title: { type: 'string' }, section: { type: 'string' }, comments_count: { type: 'integer' }, reading_time_minutes: { type: 'integer' } } },
        expected: { title: 'Coral reefs recover after a decade of protection', section: 'Science', comments_count: ABSENT, reading_time_minutes: ABSENT },
      },
    ],
  },
  {
    id: 'blog-post-plain',
    follows: 'self-hosted blog post without structured data: title, h1, a byline paragraph, a <time>, tags line, comments',
    url: 'https://notes.example/2023/03/sourdough-at-altitude',
    html: html(
      `<title>Sourdough at altitude · Field Notes</title><meta name="author" content="Jonas Weil">`,
      `<div class="wrapper"><header class="site-header"><a href="/">Field Notes</a></header><main><article class="post">` +
        `<h1 class="post-title">Sourdough at altitude</h1><p class="post-meta"><time datetime="2023-03-18">Mar 18, 2023</time> • Jonas Weil</p>` +
        `<div class="post-content"><p>At 2,300 metres water boils at about 92 °C, and a starter that doubled in six hours at sea level takes nine.</p>` +
        `<p>I lowered the hydration to 68% and baked at 250 °C for 40 minutes.</p><p>Tags: baking, sourdough, altitude</p></div></article>` +
        `<section class="comments"><h2>3 comments</h2><div class="comment"><p class="comment-author">Ana</p><p>Rated it 5 stars, worked for me.</p></div></section></main>` +
        `<footer class="site-footer"><p>Powered by a static site generator.</p></footer></div>`,
    ),
    schemas: [
      {
        name: 'post',
        schema: { type: 'object', properties: { title: { type: 'string' }, author: { type: 'string' }, date: { type: 'string', format: 'date' }, tags: { type: 'array', items: { type: 'string' } } } },
        expected: { title: 'Sourdough at altitude', author: 'Jonas Weil', date: '2023-03-18', tags: ['baking', 'sourdough', 'altitude'] },
      },
      { name: 'traps', schema: NOT_IN_ARTICLES, expected: absentInArticles },
    ],
  },
  {
    id: 'recipe-jsonld',
    follows: 'recipe site: JSON-LD Recipe (ingredients, ISO 8601 times, nutrition, aggregate rating), a jump-to-recipe card',
    url: 'https://kitchen.example/recipes/lentil-soup',
    html: html(
      `<title>Red Lentil Soup Recipe - Kitchen Notes</title>` +
        ld({
          '@context': 'https://schema.org/',
          '@graph': [
            { '@type': 'WebSite', '@id': 'https://kitchen.example/#website', name: 'Kitchen Notes' },
            {
              '@type': 'Recipe',
              name: 'Red Lentil Soup',
              author: { '@type': 'Person', name: 'Priya Nair' },
              datePublished: '2022-11-02',
              description: 'A lemony red lentil soup that is ready in 45 minutes.',
              prepTime: 'PT15M',
              cookTime: 'PT30M',
              totalTime: 'PT45M',
              recipeYield: ['4', '4 servings'],
              recipeCategory: 'Soup',
              recipeCuisine: 'Turkish',
              recipeIngredient: ['1 cup red lentils', '1 onion', '2 tbsp olive oil', '1 lemon'],
              nutrition: { '@type': 'NutritionInformation', calories: '320 kcal' },
              aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.7', ratingCount: '212' },
            },
          ],
        }),
      `<header><nav class="menu"><a href="/">Recipes</a></nav></header><main><article><h1 class="entry-title">Red Lentil Soup</h1><p>My grandmother's soup, made in one pot.</p>` +
        `<div class="wprm-recipe-container"><h2 class="wprm-recipe-name">Red Lentil Soup</h2><span class="wprm-recipe-time">15 minutes</span>` +
        `<ul class="wprm-recipe-ingredients"><li>1 cup red lentils</li><li>1 onion</li><li>2 tbsp olive oil</li><li>1 lemon</li></ul></div></article></main>`,
    ),
    schemas: [
      {
        name: 'recipe',
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string' }, author: { type: 'string' }, ingredients: { type: 'array', items: { type: 'string' } }, prep_time: { type: 'string' }, calories: { type: 'integer' },
            rating: { type: 'number' }, rating_count: { type: 'integer' }, cuisine: { type: 'string' }, category: { type: 'string' },
          },
        },
        expected: {
          name: 'Red Lentil Soup', author: 'Priya Nair', ingredients: ['1 cup red lentils', '1 onion', '2 tbsp olive oil', '1 lemon'], prep_time: 'PT15M', calories: 320, rating: 4.7,
          rating_count: 212, cuisine: 'Turkish', category: 'Soup',
        },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { price: { type: 'number' }, video_url: { type: 'string', format: 'uri' }, difficulty: { type: 'string' }, wine_pairing: { type: 'string' } } },
        expected: { price: ABSENT, video_url: ABSENT, difficulty: ABSENT, wine_pairing: ABSENT },
      },
    ],
  },
  {
    id: 'docs-page',
    follows: 'documentation page of a static site generator: sidebar navigation, version selector, "Last updated" footer, code blocks',
    url: 'https://docs.tool.example/guide/install',
    html: html(
      `<title>Installation | Tool Docs</title><meta name="description" content="How to install Tool on Linux, macOS and Windows.">`,
      `<nav class="sidebar"><ul><li><a href="/guide/">Introduction</a></li><li><a href="/guide/install">Installation</a></li><li><a href="/guide/config">Configuration</a></li></ul>` +
        `<select class="version"><option>v3.2</option><option>v2.9</option></select></nav><main class="content"><h1>Installation</h1>` +
        `<p>Tool needs Node 20 or later. Install it with npm:</p><pre><code>npm install -g tool@3.2.1</code></pre>` +
        `<h2>Requirements</h2><ul><li>Node 20+</li><li>2 GB of memory</li></ul><footer class="page-footer"><p>Last updated: 2024-05-02</p><a href="/edit/install.md">Edit this page</a></footer></main>`,
    ),
    schemas: [
      {
        name: 'doc',
        schema: { type: 'object', properties: { title: { type: 'string' }, description: { type: 'string' }, requirements: { type: 'array', items: { type: 'string' } }, last_updated: { type: 'string', format: 'date' } } },
        expected: { title: 'Installation', description: 'How to install Tool on Linux, macOS and Windows.', requirements: ['Node 20+', '2 GB of memory'], last_updated: '2024-05-02' },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { author: { type: 'string' }, price: { type: 'number' }, license: { type: 'string' }, stars: { type: 'integer' }, downloads: { type: 'integer' } } },
        expected: { author: ABSENT, price: ABSENT, license: ABSENT, stars: ABSENT, downloads: ABSENT },
      },
    ],
  },
];
