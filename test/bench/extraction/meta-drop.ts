/** A page's metadata taken out, to see what freshet reads from what the page shows (meta-probe, author-sources). */

/** The page without its `<meta>` tags. */
export const dropTags = (html: string): string => html.replace(/<meta\b[^>]*>/gi, '');

/** The page without its JSON-LD scripts. */
export const dropLd = (html: string): string => html.replace(/<script[^>]*application\/ld\+json[^>]*>[\s\S]*?<\/script>/gi, '');

/** The page without what perturb-probe's `meta` mode drops: meta tags and JSON-LD. */
export const dropMeta = (html: string): string => dropLd(dropTags(html));
