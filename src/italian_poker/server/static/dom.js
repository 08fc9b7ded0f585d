// Building the pages' elements, one helper for every script.

/** A `tag` element: `attrs` sets its attributes (`class`, `text` for its text, `on<event>`
 * for a listener; null, undefined and false leave one out, true sets it empty), then
 * `children` (nodes or strings; null and undefined are skipped) are appended. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}
