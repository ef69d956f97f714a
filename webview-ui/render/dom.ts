/** Children an element may be built from: nodes, or strings that always become text nodes (never markup). */
export type Child = Node | string | null | undefined | false;

export interface ElementProps {
  readonly class?: string;
  /** Plain attributes; `on*` names are refused so no inline handler can slip in (the CSP would block it anyway). */
  readonly attrs?: Readonly<Record<string, string | undefined>>;
}

/** Builds an element the safe way: text is text, never HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  props: ElementProps = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = doc.createElement(tag);
  if (props.class) element.className = props.class;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (/^on/i.test(name)) throw new Error(`inline event handler attribute ${name} is not allowed`);
    if (value !== undefined) element.setAttribute(name, value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** A codicon, hidden from screen readers (the text or label next to it says what it means). */
export function icon(doc: Document, name: string, extraClass = ""): HTMLSpanElement {
  return h(doc, "span", {
    class: `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ""}`,
    attrs: { "aria-hidden": "true" },
  });
}

/** A button whose click the view handles by delegation (`data-action` plus its `data-*` arguments). */
export function actionButton(
  doc: Document,
  action: string,
  data: Readonly<Record<string, string | undefined>>,
  content: { readonly label: string; readonly icon?: string; readonly text?: string; readonly class?: string },
): HTMLButtonElement {
  const attrs: Record<string, string | undefined> = {
    type: "button",
    "data-action": action,
    "aria-label": content.label,
    title: content.label,
  };
  for (const [key, value] of Object.entries(data)) attrs[`data-${key}`] = value;
  return h(
    doc,
    "button",
    { class: content.class ?? "button", attrs },
    content.icon ? icon(doc, content.icon) : null,
    content.text ?? null,
  );
}

/** "1 line" / "12 lines". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** A `<details>` the view remembers by `key` (see SectionMemory); the summary is the always-visible line. */
export function collapsible(
  doc: Document,
  key: string,
  open: boolean,
  className: string,
  summary: Child[],
  body: Child[],
): HTMLDetailsElement {
  const details = h(
    doc,
    "details",
    { class: className, attrs: { "data-section": key } },
    h(doc, "summary", {}, ...summary),
    ...body,
  );
  details.open = open;
  return details;
}
