/** Output shapes of the se1 parsers (`results[].json`); the JSON Schemas in schemas.ts mirror them. */
import type { ImageResult } from './images-tab.js';
import type { NewsResult } from './news-tab.js';
import type { ShoppingProduct } from './shopping.js';
import type { Vertical } from './vertical.js';

export interface Link {
  title: string;
  url: string;
}

export interface OrganicResult {
  /** 1-based rank among the organic results of this page. */
  position: number;
  title: string;
  url: string;
  displayed_url: string | null;
  snippet: string | null;
  sitelinks: Link[];
}

export interface PaidResult {
  position: number;
  /** Where the ad was shown: above or below the organic results. */
  block: 'top' | 'bottom';
  title: string;
  url: string;
  displayed_url: string | null;
  description: string | null;
  sitelinks: Link[];
}

export interface ShoppingUnit {
  position: number;
  title: string;
  url: string | null;
  price: string | null;
  merchant: string | null;
}

export interface RelatedQuestion {
  question: string;
  /** Title, link and text of the answer's source, when the page carries the expanded answer. */
  title: string | null;
  url: string | null;
  snippet: string | null;
}

export interface RelatedSearch {
  query: string;
  url: string | null;
}

export interface AiSource {
  title: string;
  url: string;
  publisher: string | null;
}

export interface AiOverview {
  text: string;
  sources: AiSource[];
}

export interface FeaturedSnippet {
  title: string | null;
  url: string | null;
  displayed_url: string | null;
  text: string;
}

export interface KnowledgePanel {
  title: string;
  subtitle: string | null;
  description: string | null;
  source: Link | null;
  facts: { label: string; value: string }[];
}

export interface LocalResult {
  position: number;
  title: string;
  rating: number | null;
  reviews: number | null;
  /** The place's category as shown ("Coffee shop"). */
  category: string | null;
  /** The street address or locality line ("1594 Market St", "Coffeyville, KS"). */
  address: string | null;
  /** Every detail line of the card, joined with " · " (hours, services, description). */
  details: string | null;
  /** The place's own website, when the card links it. */
  url: string | null;
}

export interface NewsItem {
  position: number;
  title: string;
  url: string;
  source: string | null;
  published: string | null;
}

export interface VideoItem {
  position: number;
  title: string;
  url: string;
  source: string | null;
  duration: string | null;
}

export interface Se1SearchJson {
  query: string | null;
  page: number;
  /** The result tab the page shows. */
  vertical: Vertical;
  result_count: number | null;
  organic: OrganicResult[];
  paid: PaidResult[];
  shopping: ShoppingUnit[];
  people_also_ask: RelatedQuestion[];
  related_searches: RelatedSearch[];
  ai_overview: AiOverview | null;
  featured_snippet: FeaturedSnippet | null;
  knowledge_panel: KnowledgePanel | null;
  local_pack: LocalResult[];
  top_stories: NewsItem[];
  videos: VideoItem[];
  /** The News tab's articles (empty on other tabs). */
  news_results: NewsResult[];
  /** The Images tab's images (empty on other tabs). */
  image_results: ImageResult[];
  /** The Shopping tab's products (empty on other tabs). */
  shopping_results: ShoppingProduct[];
}

export interface Se1AdsJson {
  query: string | null;
  page: number;
  paid: PaidResult[];
  shopping: ShoppingUnit[];
}
