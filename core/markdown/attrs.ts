/**
 * The attributes the converter reads. The parser is driven with per-attribute callbacks, so
 * no attribute object is built for the thousands of elements that need none; wanted values
 * land in one reusable bag of plain fields (fixed shape, static property access), copied only
 * for the few elements the renderer reads attributes of.
 */
export class Attrs {
  href: string | undefined = undefined;
  src: string | undefined = undefined;
  alt: string | undefined = undefined;
  /** `class` */
  cls: string | undefined = undefined;
  id: string | undefined = undefined;
  role: string | undefined = undefined;
  style: string | undefined = undefined;
  hidden: string | undefined = undefined;
  ariaHidden: string | undefined = undefined;
  open: string | undefined = undefined;
  start: string | undefined = undefined;
  colspan: string | undefined = undefined;
  width: string | undefined = undefined;
  height: string | undefined = undefined;
  /** `data-src`, `data-lazy-src`, `data-original`: lazy-loading image sources. */
  dataSrc: string | undefined = undefined;
  lazySrc: string | undefined = undefined;
  original: string | undefined = undefined;

  clear(): void {
    this.href = this.src = this.alt = this.cls = this.id = this.role = this.style = undefined;
    this.hidden = this.ariaHidden = this.open = this.start = this.colspan = undefined;
    this.width = this.height = this.dataSrc = this.lazySrc = this.original = undefined;
  }

  /** Stores a wanted attribute (names arrive lowercased); the first of duplicates wins. */
  set(name: string, value: string): void {
    switch (name) {
      case 'class': if (this.cls === undefined) this.cls = value; return;
      case 'href': if (this.href === undefined) this.href = value; return;
      case 'src': if (this.src === undefined) this.src = value; return;
      case 'alt': if (this.alt === undefined) this.alt = value; return;
      case 'id': if (this.id === undefined) this.id = value; return;
      case 'role': if (this.role === undefined) this.role = value; return;
      case 'style': if (this.style === undefined) this.style = value; return;
      case 'hidden': if (this.hidden === undefined) this.hidden = value; return;
      case 'aria-hidden': if (this.ariaHidden === undefined) this.ariaHidden = value; return;
      case 'open': if (this.open === undefined) this.open = value; return;
      case 'start': if (this.start === undefined) this.start = value; return;
      case 'colspan': if (this.colspan === undefined) this.colspan = value; return;
      case 'width': if (this.width === undefined) this.width = value; return;
      case 'height': if (this.height === undefined) this.height = value; return;
      case 'data-src': if (this.dataSrc === undefined) this.dataSrc = value; return;
      case 'data-lazy-src': if (this.lazySrc === undefined) this.lazySrc = value; return;
      case 'data-original': if (this.original === undefined) this.original = value; return;
    }
  }

  clone(): Attrs {
    const a = new Attrs();
    a.href = this.href;
    a.src = this.src;
    a.alt = this.alt;
    a.cls = this.cls;
    a.id = this.id;
    a.role = this.role;
    a.style = this.style;
    a.hidden = this.hidden;
    a.ariaHidden = this.ariaHidden;
    a.open = this.open;
    a.start = this.start;
    a.colspan = this.colspan;
    a.width = this.width;
    a.height = this.height;
    a.dataSrc = this.dataSrc;
    a.lazySrc = this.lazySrc;
    a.original = this.original;
    return a;
  }
}

/** Shared by every element whose attributes are not read. */
export const NO_ATTRS: Readonly<Attrs> = Object.freeze(new Attrs());
