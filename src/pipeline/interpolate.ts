/**
 * `${NAME}` and `${NAME:-default}` in pipeline files, from variables the CLI passes in (so
 * credentials and ports stay out of committed files). `$${…}` escapes. A missing variable without
 * a default is an error naming it.
 */
export function interpolate(text: string, vars: Record<string, string | undefined>): { text: string; missing: string[] } {
  const missing: string[] = [];
  const out = text.replace(/\$(\$)?\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, escaped?: string, name?: string, fallback?: string) => {
    if (escaped) return whole.slice(1);
    const v = vars[name!];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    missing.push(name!);
    return whole;
  });
  return { text: out, missing: [...new Set(missing)] };
}
