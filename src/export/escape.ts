/**
 * Escaping for every output language kvcheck writes. Anything a user supplied (scenario names,
 * tenant names, descriptions) passes through one of these before it lands in a document.
 */

const htmlEntities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe inside HTML or SVG element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => htmlEntities[c] ?? c);
}

/**
 * Text safe inside a Mermaid label (state descriptions, transition labels, messages, notes).
 * Mermaid's numeric entity codes (`#60;` for `<`, `#34;` for `"`, `#35;` for `#`…) replace, in
 * one pass, every character that could end a label, start markup or open an entity; line breaks
 * become spaces.
 */
export function escapeMermaid(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[#&<>"';:{}[\]|`\\]/g, (c) => `#${c.charCodeAt(0)};`);
}

/** A Mermaid identifier for `text`: letters, digits and `_` only, never empty. */
export function mermaidId(text: string): string {
  const id = text.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(id) ? id : `_${id}`;
}

/** A double-quoted DOT string for `text` (labels, ids): quotes and backslashes escaped. */
export function dotString(text: string): string {
  return `"${text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/[\r\n]+/g, ' ')}"`;
}

/** Text safe inside a Markdown table cell: pipes escaped, line breaks folded, HTML escaped. */
export function escapeMarkdownCell(text: string): string {
  return escapeHtml(text)
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
}

/**
 * Free text (a description, a file path) safe as a Markdown paragraph: HTML escaped, line breaks
 * folded, and every character that could start a link, an image, emphasis, code, a heading, a
 * table or a block quote backslash-escaped, so the text renders as itself.
 */
export function escapeMarkdownText(text: string): string {
  // Backslashes first, entities last: an entity's `#` must not be escaped.
  return escapeHtml(text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_[\]()#+!|~{}]/g, (c) => `\\${c}`));
}

/**
 * `JSON.stringify(value, null, 2)` with `<`, `>`, `&`, U+2028 and U+2029 written as `\uXXXX`
 * escapes: the same JSON value (`JSON.parse` gives it back), safe to embed in HTML or a script.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
