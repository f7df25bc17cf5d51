/**
 * Name matching between a schema property (name, title, description) and a candidate's key
 * path (`offers.price`, `og:title`, the label "Item model number"). Names are compared as
 * tokens (camelCase, snake_case, labels), then through synonym groups ("concepts").
 */
import { tokens } from './dom.js';

/**
 * Synonym groups. Entries are token sequences joined without separators. Only words that mean
 * the field wherever they label a value: a loose synonym (`store` for seller, `length` for
 * duration) fills fields from unrelated elements.
 */
const CONCEPTS: Record<string, string[]> = {
  name: ['name', 'title', 'productname', 'producttitle', 'itemname', 'headline', 'heading', 'itemtitle', 'videotitle', 'pagetitle'],
  description: ['description', 'desc', 'summary', 'abstract', 'about', 'overview', 'intro', 'excerpt', 'snippet', 'teaser', 'shortdescription', 'blurb'],
  price: ['price', 'cost', 'amount', 'saleprice', 'currentprice', 'offerprice', 'ourprice', 'lowprice', 'priceamount', 'pricevalue', 'finalprice'],
  currency: ['currency', 'pricecurrency', 'currencycode', 'curr'],
  rating: ['rating', 'ratingvalue', 'stars', 'averagerating', 'avgrating', 'starrating', 'customerrating', 'aggregaterating'],
  reviews: ['reviewcount', 'reviews', 'numreviews', 'reviewscount', 'ratingcount', 'numberofreviews', 'totalreviews', 'ratingscount', 'ratings', 'numratings', 'reviewtotal', 'customerreview', 'customerreviews'],
  image: ['image', 'img', 'photo', 'picture', 'thumbnail', 'thumbnailurl', 'imageurl', 'pic', 'mainimage', 'coverimage', 'poster', 'imagesrc', 'primaryimage'],
  url: ['url', 'link', 'href', 'permalink', 'canonical', 'pageurl', 'canonicalurl', 'producturl', 'weburl', 'videourl', 'detailurl', 'website', 'homepage'],
  brand: ['brand', 'manufacturer', 'make', 'maker', 'vendor', 'brandname'],
  author: ['author', 'creator', 'writer', 'by', 'artist', 'uploader', 'channel', 'channelname', 'authorname', 'postedby', 'writtenby', 'developer'],
  publisher: ['publisher', 'sitename', 'publication'],
  date: ['date', 'datepublished', 'publishdate', 'published', 'publishedtime', 'publishedat', 'uploaddate', 'pubdate', 'releasedate', 'datecreated', 'created', 'createdat', 'posted', 'postedat', 'publicationdate', 'releasetime'],
  modified: ['datemodified', 'modifiedtime', 'modified', 'updated', 'updatedat', 'lastmodified', 'lastupdated', 'updatedtime'],
  availability: ['availability', 'instock', 'available', 'stock', 'isavailable', 'stockstatus', 'isinstock', 'inventory'],
  sku: ['sku', 'productid', 'itemid', 'itemnumber', 'articlenumber', 'asin', 'productcode'],
  gtin: ['gtin', 'gtin8', 'gtin12', 'gtin13', 'gtin14', 'ean', 'upc', 'barcode', 'isbn', 'isbn13'],
  mpn: ['mpn', 'partnumber', 'manufacturerpartnumber', 'partno'],
  model: ['model', 'modelnumber', 'modelno', 'modelname', 'itemmodelnumber'],
  category: ['category', 'genre', 'department', 'categories', 'breadcrumb', 'productcategory'],
  language: ['lang', 'language', 'locale', 'inlanguage'],
  logo: ['logo', 'icon', 'favicon', 'sitelogo', 'brandlogo'],
  keywords: ['keywords', 'tags', 'tag', 'topics', 'labels', 'hashtags'],
  content: ['content', 'body', 'text', 'articlebody', 'maintext', 'fulltext', 'articletext', 'bodytext'],
  duration: ['duration', 'runtime', 'playtime'],
  views: ['views', 'viewcount', 'interactioncount', 'plays', 'playcount', 'numviews', 'userinteractioncount'],
  condition: ['condition', 'itemcondition'],
  familyfriendly: ['familyfriendly', 'familysafe', 'kidsafe', 'childsafe'],
  color: ['color', 'colour'],
  seller: ['seller', 'soldby', 'merchant', 'retailer'],
  phone: ['phone', 'telephone', 'tel', 'phonenumber', 'mobile'],
  email: ['email', 'mail', 'emailaddress'],
  address: ['address', 'streetaddress'],
  city: ['city', 'locality', 'addresslocality', 'town'],
  postalcode: ['postalcode', 'zip', 'zipcode', 'postcode'],
  country: ['country', 'addresscountry', 'countrycode'],
  venue: ['venue', 'location', 'locationname'],
  company: ['company', 'organization', 'organisation', 'employer', 'hiringorganization', 'companyname'],
  id: ['id', 'identifier', 'uid'],
};

const CONCEPT_OF = new Map<string, string>();
for (const [concept, words] of Object.entries(CONCEPTS)) for (const w of words) if (!CONCEPT_OF.has(w)) CONCEPT_OF.set(w, concept);

/** Segments whose value is the parent's own value (`brand.name` is the brand). */
const VALUE_SEGMENTS = new Set(['name', 'value', '@value', 'url', 'text', 'contenturl', '@id']);

/** Words that carry no meaning in labels and class names. */
const NOISE = new Set(['the', 'a', 'an', 'of', 'what', 'you', 'how', 'to', 'for', 'with', 'and', 'in', 'on', 'do', 'does', 'our', 'your', 'item', 'product', 'js', 'is', 'has', 'data', 'field', 'label', 'value', 'info', 'og', 'twitter', 'itemprop', 'aggregate']);

export function norm(s: string): string {
  return tokens(s).join('');
}

/** Words a key may add to a field's name without changing what it names. */
const KIND_SUFFIX = new Set(['time', 'date', 'at', 'value', 'name', 'number', 'count', 'code', 'text', 'id', 'url']);

/** Words that end element names without naming their content (`acrCustomerReviewText`, `price_feature_div`). */
const GENERIC_SUFFIX = new Set(['text', 'container', 'wrapper', 'div', 'span', 'section', 'block', 'feature', 'widget', 'box', 'area', 'row', 'col', 'inner', 'outer', 'wrap', 'holder']);

/**
 * Words that make a field another thing than its last word says: an `old_price` is not the
 * price, an `end_date` not the date, a `seller_phone` not the page's phone. A field with one of
 * them (or a word of another concept) matches only keys that carry it too.
 */
const QUALIFIERS = new Set([
  'old', 'original', 'was', 'previous', 'prev', 'list', 'regular', 'compare', 'strike', 'strikethrough', 'before', 'min', 'minimum', 'max', 'maximum',
  'lowest', 'highest', 'average', 'total', 'shipping', 'delivery', 'unit', 'tax', 'discount', 'member', 'starting', 'end', 'expiry', 'expires', 'valid',
  'birth', 'death', 'due', 'deadline', 'next', 'secondary', 'alternate', 'other', 'related', 'similar', 'parent', 'child', 'second', 'third', 'last',
  'range', 'per', 'each', 'high',
]);

function meaningfulTokens(name: string): string[] {
  const t = tokens(name).filter((w) => !NOISE.has(w));
  while (t.length > 1 && GENERIC_SUFFIX.has(t[t.length - 1] as string)) t.pop();
  return t;
}

/** Whether the field's own words beyond its concept word change what it is (see QUALIFIERS). */
function qualified(field: string, concept: string, key: string[]): boolean {
  const have = new Set(key.flatMap((seg) => tokens(seg)));
  return meaningfulTokens(field).some((w) => !have.has(w) && (QUALIFIERS.has(w) || (CONCEPT_OF.get(w) !== undefined && CONCEPT_OF.get(w) !== concept)));
}

/** The concept of a name: the whole name, its last two tokens, its last token, its first token. */
export function conceptOf(name: string): string | undefined {
  return conceptMatch(name)?.concept;
}

/**
 * A name's concept and how many of its meaningful words it leaves aside (`vse-video-author`:
 * author, with two words about something else: a video widget's author, not the page's).
 */
function conceptMatch(name: string): { concept: string; extra: number } | undefined {
  const t = tokens(name);
  if (t.length === 0) return undefined;
  const whole = CONCEPT_OF.get(t.join(''));
  if (whole) return { concept: whole, extra: 0 };
  const meaningful = meaningfulTokens(name);
  const m = meaningful.length > 0 ? meaningful : t;
  const tries: Array<[string | undefined, number]> = [
    [m.join(''), m.length],
    [m.length >= 2 ? m.slice(-2).join('') : undefined, 2],
    [m[m.length - 1], 1],
    [m.length <= 2 ? m[0] : undefined, 1],
  ];
  for (const [key, used] of tries) {
    const concept = key === undefined ? undefined : CONCEPT_OF.get(key);
    if (concept) return { concept, extra: Math.max(0, m.length - used) };
  }
  return undefined;
}

export interface PropertyName {
  name: string;
  title?: string;
  description?: string;
  /** Names of the enclosing properties, outermost first (context for nested objects). */
  context?: string[];
}

/** Plural folding, enough for field names: `reviews` → `review`, `boxes` → `box`. */
function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

function nameScore(p: string, path: string[]): number {
  const last = path[path.length - 1] as string;
  const np = norm(p);
  if (np === '') return 0;
  const nl = norm(last);
  if (np === nl || np === norm(path.join(' '))) return 1;
  // The same words once noise is left out: `product_title` for `title`, `a-price` for `price`.
  const mp = meaningfulTokens(p).join('');
  if (mp !== '' && mp === meaningfulTokens(last).join('')) return 0.95;
  const cp = conceptOf(p);
  const kl = conceptMatch(last);
  const cl = kl?.concept;
  if (cp !== undefined && CONCEPT_OF.get(np) !== cp && qualified(p, cp, path)) return 0;
  // And the other way round: a `List Price` or `oldPrice` key is not the `price`.
  // (A key the concept lists whole, `averageRating`, `totalReviews`, is the thing itself.)
  if (cp !== undefined && cp === cl && (kl?.extra ?? 0) > 0 && meaningfulTokens(last).some((w) => QUALIFIERS.has(w) && !meaningfulTokens(p).includes(w))) return 0;
  // A synonym names the field less surely than its own name (`name` for a `title` field), and
  // less again with each word of the key about something else (`date first available`).
  if (cp !== undefined && cp === cl) return 0.8 / (1 + 0.3 * (kl?.extra ?? 0));
  if (path.length >= 2 && VALUE_SEGMENTS.has(nl)) {
    const parent = path[path.length - 2] as string;
    if (np === norm(parent)) return 0.88;
    if (cp !== undefined && cp === conceptOf(parent)) return 0.78;
  }
  if (stem(np) === stem(nl)) return 0.95;
  // The field's name and a word that only says what kind of value it is: `checkinTime` for `check_in`.
  if (nl.startsWith(np) && KIND_SUFFIX.has(nl.slice(np.length))) return 0.9;
  // Token overlap on the last segment (plurals folded), penalised for extra words in the key.
  const tp = tokens(p).filter((w) => !NOISE.has(w)).map(stem);
  const tl = new Set(tokens(last).filter((w) => !NOISE.has(w)).map(stem));
  if (tp.length === 0 || tl.size === 0) return 0;
  const hit = tp.filter((w) => tl.has(w)).length;
  if (hit === 0) return 0;
  const own = 0.75 * (hit / tp.length) * Math.sqrt(hit / tl.size);
  // Every word of the field along the key's path: `salary_min` in `baseSalary.value.minValue`.
  const along = new Set(path.flatMap((seg) => tokens(seg)).filter((w) => !NOISE.has(w)).map(stem));
  const all = tp.every((w) => along.has(w));
  return all && tp.length >= 2 ? Math.max(own, 0.7 * Math.sqrt(tp.length / along.size)) : own;
}

const SCORE_CACHE = new Map<string, number>();

/** How well `path` names the property, 0..1 (memoised per thread: pools repeat keys). */
export function matchScore(prop: PropertyName, path: string[]): number {
  if (path.length === 0) return 0;
  const key = `${prop.name}\u0001${prop.title ?? ''}\u0001${prop.description ?? ''}\u0001${(prop.context ?? []).join('\u0002')}\u0001${path.join('\u0002')}`;
  let s = SCORE_CACHE.get(key);
  if (s === undefined) {
    if (SCORE_CACHE.size > 50_000) SCORE_CACHE.clear();
    SCORE_CACHE.set(key, (s = computeScore(prop, path)));
  }
  return s;
}

/** Stemmed words of a name, noise left out. */
function words(name: string): Set<string> {
  return new Set(meaningfulTokens(name).map(stem));
}

function computeScore(prop: PropertyName, path: string[]): number {
  let s = nameScore(prop.name, path);
  // Of two synonyms, the key that shares a word with the field: `stars` is a hotel's `starRating`.
  if (s > 0 && s < 0.95) {
    const own = words(prop.name);
    if ([...words(path[path.length - 1] as string)].some((w) => own.has(w))) s += 0.05;
  }
  if (prop.title) s = Math.max(s, 0.97 * nameScore(prop.title, path));
  if (s < 0.5 && prop.description) {
    // A description is prose: only its concept words can point at a key.
    const cl = conceptOf(path[path.length - 1] as string);
    const words = tokens(prop.description);
    if (cl !== undefined && words.some((w) => CONCEPT_OF.get(w) === cl)) s = Math.max(s, 0.6);
  }
  if (s > 0 && prop.context && prop.context.length > 0 && path.length >= 2) {
    const parents = path.slice(0, -1).map(norm);
    const ctx = prop.context[prop.context.length - 1] as string;
    if (parents.includes(norm(ctx)) || parents.some((seg) => conceptOf(seg) !== undefined && conceptOf(seg) === conceptOf(ctx))) s += 0.05;
  }
  return s;
}

/** Whether a key names the field by its own words (not a synonym): it belongs to that field. */
export function namesExactly(field: string, path: string[]): boolean {
  return path.length > 0 && nameScore(field, path) >= 0.95;
}

/** Whether a schema property is of the given concept (for concept-specific coercion). */
export function propertyConcept(prop: PropertyName): string | undefined {
  for (const name of [prop.name, prop.title]) {
    if (!name) continue;
    const concept = conceptOf(name);
    // A qualified field (`price_range`, `old_price`) is not read as its concept (a range is no price).
    if (concept !== undefined && (CONCEPT_OF.get(norm(name)) === concept || !meaningfulTokens(name).some((w) => QUALIFIERS.has(w)))) return concept;
  }
  return undefined;
}
