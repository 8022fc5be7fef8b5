/**
 * Whether a page presents one product for sale, by what it says of itself: `og:type` `product`
 * (`product.item`, `product.group`), or a JSON-LD object of type Product at its top level (a
 * shop's product schema; a list of products nests them inside an ItemList). Shops render their
 * product pages from templates that print a section once per breakpoint or carousel slide, which
 * other pages' texts do not.
 */
export function isProductPage(meta: ReadonlyMap<string, string>, ld: ReadonlyArray<Record<string, unknown>>): boolean {
  if (/^product\b/i.test(meta.get('og:type') ?? '')) return true;
  return ld.some((o) => {
    const t = o['@type'];
    return Array.isArray(t) ? t.some(isProductType) : isProductType(t);
  });
}

/** `Product`, `ProductGroup`, `IndividualProduct`, or the same as a schema.org URL. */
function isProductType(t: unknown): boolean {
  return typeof t === 'string' && /^(?:https?:\/\/schema\.org\/)?(?:Individual)?Product(?:Group|Model)?$/.test(t);
}
