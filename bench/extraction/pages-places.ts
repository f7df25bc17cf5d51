/**
 * Extraction corpus: a local business, a contact page, an event, a job posting and a video
 * page, written after the markup of real directories, venues, job boards and video sites
 * (content made up). Traps: the directory's own phone and address in its footer, other
 * listings nearby, counts of other things.
 */
import { ABSENT, type PageCase } from './score.js';

const html = (head: string, body: string): string => `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
const ld = (data: unknown): string => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

export const PLACE_PAGES: PageCase[] = [
  {
    id: 'local-business-jsonld',
    follows: 'directory listing of a restaurant: JSON-LD Restaurant with PostalAddress, hours, rating; nearby listings; the directory\'s footer with its own phone',
    url: 'https://eatguide.example/biz/olive-and-thyme-lisbon',
    html: html(
      `<title>Olive &amp; Thyme - Lisbon - Reviews | EatGuide</title>` +
        ld({
          '@context': 'https://schema.org',
          '@type': 'Restaurant',
          name: 'Olive & Thyme',
          telephone: '+351 21 000 1234',
          priceRange: '€€',
          servesCuisine: 'Mediterranean',
          url: 'https://oliveandthyme.example',
          address: { '@type': 'PostalAddress', streetAddress: 'Rua da Prata 12', addressLocality: 'Lisbon', postalCode: '1100-420', addressCountry: 'PT' },
          geo: { '@type': 'GeoCoordinates', latitude: 38.7103, longitude: -9.1365 },
          openingHours: ['Tu-Sa 12:00-23:00'],
          aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.6', reviewCount: '318' },
        }),
      `<header><a href="/">EatGuide</a><form role="search"><input name="q"></form></header><main><h1>Olive &amp; Thyme</h1>` +
        `<div class="biz-rating"><span class="stars" aria-label="4.6 star rating"></span> <a href="#reviews">318 reviews</a></div>` +
        `<p class="biz-address">Rua da Prata 12, 1100-420 Lisbon</p><p class="biz-phone">+351 21 000 1234</p>` +
        `<section class="nearby"><h2>People also viewed</h2><ul>${['Casa Azul|4.2|120', 'Tasca do Rio|4.8|951', 'Pão Quente|4.0|64']
          .map((x) => x.split('|'))
          .map(([n, r, c]) => `<li class="biz-card"><a href="/biz/${n}"><img src="/b/${n}.jpg" alt=""><h3>${n}</h3></a><span class="stars" aria-label="${r} star rating"></span><span class="count">${c} reviews</span></li>`)
          .join('')}</ul></section></main><footer><p>EatGuide Ltd · 1 Market Street · Support: +44 20 0000 0000 · support@eatguide.example</p></footer>`,
    ),
    schemas: [
      {
        name: 'place',
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string' }, phone: { type: 'string' }, street: { type: 'string' }, city: { type: 'string' }, postal_code: { type: 'string' }, country: { type: 'string' },
            rating: { type: 'number' }, reviews: { type: 'integer' }, price_range: { type: 'string' }, cuisine: { type: 'string' }, website: { type: 'string', format: 'uri' },
          },
        },
        expected: {
          name: 'Olive & Thyme', phone: '+351 21 000 1234', street: 'Rua da Prata 12', city: 'Lisbon', postal_code: '1100-420', country: 'PT', rating: 4.6, reviews: 318,
          price_range: '€€', cuisine: 'Mediterranean', website: 'https://oliveandthyme.example',
        },
      },
      {
        name: 'nested address',
        schema: { type: 'object', properties: { name: { type: 'string' }, address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: 'string' } } } } },
        expected: { name: 'Olive & Thyme', address: { street: 'Rua da Prata 12', city: 'Lisbon', zip: '1100-420' } },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { email: { type: 'string' }, fax: { type: 'string' }, founded: { type: 'integer' }, owner: { type: 'string' }, capacity: { type: 'integer' } } },
        expected: { email: ABSENT, fax: ABSENT, founded: ABSENT, owner: ABSENT, capacity: ABSENT },
      },
    ],
  },
  {
    id: 'contact-page',
    follows: 'company contact page: a definition list of contact details, opening hours table, social links in the footer',
    url: 'https://acme-tools.example/contact',
    html: html(
      `<title>Contact – Acme Tools GmbH</title>`,
      `<header class="site-header"><nav><a href="/">Home</a> <a href="/contact">Contact</a></nav></header><main><h1>Contact us</h1>` +
        `<dl class="contact"><dt>Company</dt><dd>Acme Tools GmbH</dd><dt>Address</dt><dd>Industriestraße 7, 70565 Stuttgart</dd><dt>Phone</dt><dd>+49 711 000 555</dd><dt>Email</dt><dd><a href="mailto:info@acme-tools.example">info@acme-tools.example</a></dd></dl>` +
        `<h2>Opening hours</h2><table class="hours"><tr><td>Mon–Fri</td><td>08:00–17:00</td></tr><tr><td>Sat</td><td>09:00–12:00</td></tr></table></main>` +
        `<footer><ul class="social"><li><a href="https://social.example/acme">Follow us</a></li></ul><p>VAT ID DE000000000</p></footer>`,
    ),
    schemas: [
      {
        name: 'contact',
        schema: { type: 'object', properties: { company: { type: 'string' }, address: { type: 'string' }, phone: { type: 'string' }, email: { type: 'string', format: 'email' } } },
        expected: { company: 'Acme Tools GmbH', address: 'Industriestraße 7, 70565 Stuttgart', phone: '+49 711 000 555', email: 'info@acme-tools.example' },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { fax: { type: 'string' }, founded: { type: 'integer' }, employees: { type: 'integer' }, rating: { type: 'number' }, price: { type: 'number' }, author: { type: 'string' } } },
        expected: { fax: ABSENT, founded: ABSENT, employees: ABSENT, rating: ABSENT, price: ABSENT, author: ABSENT },
      },
    ],
  },
  {
    id: 'event-jsonld',
    follows: 'ticketing page of a concert: JSON-LD MusicEvent with a Place and an Offer, other dates of the tour below',
    url: 'https://tickets.example/e/the-lanterns-vienna',
    html: html(
      `<title>The Lanterns – Vienna, 14 Sep 2024 | Tickets</title>` +
        ld({
          '@context': 'https://schema.org',
          '@type': 'MusicEvent',
          name: 'The Lanterns – Autumn Tour',
          startDate: '2024-09-14T20:00:00+02:00',
          eventStatus: 'https://schema.org/EventScheduled',
          location: { '@type': 'Place', name: 'Arena Hall', address: { '@type': 'PostalAddress', addressLocality: 'Vienna', addressCountry: 'AT' } },
          offers: { '@type': 'Offer', price: '49.50', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
          performer: { '@type': 'MusicGroup', name: 'The Lanterns' },
        }),
      `<main><h1>The Lanterns – Autumn Tour</h1><p class="when">Sat 14 Sep 2024, 20:00</p><p class="where">Arena Hall, Vienna</p>` +
        `<section class="tour"><h2>Other dates</h2><ul>${['Berlin|2024-09-16|55.00', 'Prague|2024-09-18|39.00', 'Munich|2024-09-20|52.00']
          .map((x) => x.split('|'))
          .map(([c, d, p]) => `<li class="date-card"><a href="/e/${c}"><img src="/e/${c}.jpg" alt=""><h3>${c}</h3></a><time datetime="${d}">${d}</time><span class="price">€${p}</span></li>`)
          .join('')}</ul></section></main>`,
    ),
    schemas: [
      {
        name: 'event',
        schema: { type: 'object', properties: { name: { type: 'string' }, start: { type: 'string', format: 'date' }, venue: { type: 'string' }, city: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' }, performer: { type: 'string' } } },
        expected: { name: 'The Lanterns – Autumn Tour', start: '2024-09-14', venue: 'Arena Hall', city: 'Vienna', price: 49.5, currency: 'EUR', performer: 'The Lanterns' },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { end_date: { type: 'string', format: 'date' }, organizer: { type: 'string' }, age_limit: { type: 'integer' }, capacity: { type: 'integer' } } },
        expected: { end_date: ABSENT, organizer: ABSENT, age_limit: ABSENT, capacity: ABSENT },
      },
    ],
  },
  {
    id: 'job-posting-jsonld',
    follows: 'job board posting: JSON-LD JobPosting with hiring organisation, location and salary range, similar jobs below',
    url: 'https://jobs.example/view/backend-engineer-4411',
    html: html(
      `<title>Backend Engineer at Fernwerk | Jobs</title>` +
        ld({
          '@context': 'https://schema.org/',
          '@type': 'JobPosting',
          title: 'Backend Engineer',
          datePosted: '2024-04-02',
          validThrough: '2024-05-31',
          employmentType: 'FULL_TIME',
          hiringOrganization: { '@type': 'Organization', name: 'Fernwerk', sameAs: 'https://fernwerk.example' },
          jobLocation: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: 'Hamburg', addressCountry: 'DE' } },
          baseSalary: { '@type': 'MonetaryAmount', currency: 'EUR', value: { '@type': 'QuantitativeValue', minValue: 65000, maxValue: 80000, unitText: 'YEAR' } },
        }),
      `<main><h1>Backend Engineer</h1><p class="company">Fernwerk · Hamburg</p><div class="description"><p>You will build the services behind our logistics platform.</p></div>` +
        `<section class="similar"><h2>Similar jobs</h2><ul>${['Data Engineer|Kiel|70000', 'SRE|Bremen|75000', 'Frontend Engineer|Hamburg|62000']
          .map((x) => x.split('|'))
          .map(([t, c, s]) => `<li class="job-card"><a href="/view/${t}"><img src="/logo/${c}.png" alt=""><h3>${t}</h3></a><span class="location">${c}</span><span class="salary">€${s} a year</span></li>`)
          .join('')}</ul></section></main>`,
    ),
    schemas: [
      {
        name: 'job',
        schema: { type: 'object', properties: { title: { type: 'string' }, company: { type: 'string' }, city: { type: 'string' }, employment_type: { type: 'string' }, date_posted: { type: 'string', format: 'date' }, salary_min: { type: 'integer' }, salary_max: { type: 'integer' } } },
        expected: { title: 'Backend Engineer', company: 'Fernwerk', city: 'Hamburg', employment_type: 'FULL_TIME', date_posted: '2024-04-02', salary_min: 65000, salary_max: 80000 },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { remote: { type: 'boolean' }, phone: { type: 'string' }, rating: { type: 'number' }, applicants: { type: 'integer' }, price: { type: 'number' } } },
        expected: { remote: ABSENT, phone: ABSENT, rating: ABSENT, applicants: ABSENT, price: ABSENT },
      },
    ],
  },
  {
    id: 'video-page-jsonld',
    follows: 'video watch page: JSON-LD VideoObject (ISO 8601 duration, interaction statistic), OpenGraph video tags, recommended videos',
    url: 'https://video.example/watch?v=vid00000042',
    html: html(
      `<title>How glaciers move - Video</title><meta property="og:title" content="How glaciers move"><meta property="og:type" content="video.other">` +
        ld({
          '@context': 'https://schema.org',
          '@type': 'VideoObject',
          name: 'How glaciers move',
          description: 'A time-lapse of three years of ice flow.',
          duration: 'PT4M12S',
          uploadDate: '2023-11-20',
          thumbnailUrl: 'https://video.example/thumb/vid00000042.jpg',
          interactionStatistic: { '@type': 'InteractionCounter', interactionType: { '@type': 'WatchAction' }, userInteractionCount: 48210 },
          author: { '@type': 'Person', name: 'Ice Lab' },
        }),
      `<main><h1>How glaciers move</h1><div id="owner"><a href="/@icelab">Ice Lab</a></div><p class="views">48,210 views</p>` +
        `<div id="related"><h2>Up next</h2>${['Sea ice from above|1:02:11|1.2M', 'Calving fronts|8:40|310K', 'Moraines explained|12:03|97K']
          .map((x) => x.split('|'))
          .map(([t, d, v]) => `<div class="compact-video"><a href="/watch?v=${t}"><img src="/t/${t}.jpg" alt=""><h3>${t}</h3></a><span class="duration">${d}</span><span class="views">${v} views</span></div>`)
          .join('')}</div></main>`,
    ),
    schemas: [
      {
        name: 'video',
        schema: { type: 'object', properties: { title: { type: 'string' }, duration_seconds: { type: 'integer', description: 'duration in seconds' }, upload_date: { type: 'string', format: 'date' }, views: { type: 'integer' }, channel: { type: 'string' }, thumbnail: { type: 'string', format: 'uri' } } },
        expected: { title: 'How glaciers move', duration_seconds: 252, upload_date: '2023-11-20', views: 48210, channel: 'Ice Lab', thumbnail: 'https://video.example/thumb/vid00000042.jpg' },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { likes: { type: 'integer' }, comments: { type: 'integer' }, price: { type: 'number' }, subscribers: { type: 'integer' } } },
        expected: { likes: ABSENT, comments: ABSENT, price: ABSENT, subscribers: ABSENT },
      },
    ],
  },
];
