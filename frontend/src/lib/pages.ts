// Cursor pagination kept as a stack of the cursors that opened each page, so the app can go
// back as well as on (the API gives only the next page's cursor).

export interface CursorStack {
  /** The cursors of the pages before the current one, and the current page's ("" = first). */
  stack: string[];
}

export const firstPage: CursorStack = { stack: [""] };

export function current(p: CursorStack): string {
  return p.stack[p.stack.length - 1] ?? "";
}

export function next(p: CursorStack, nextCursor: string): CursorStack {
  return nextCursor ? { stack: [...p.stack, nextCursor] } : p;
}

export function previous(p: CursorStack): CursorStack {
  return p.stack.length > 1 ? { stack: p.stack.slice(0, -1) } : p;
}

export function pageNumber(p: CursorStack): number {
  return p.stack.length;
}
