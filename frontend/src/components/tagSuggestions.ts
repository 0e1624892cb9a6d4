// How a tags field suggests the workspace's tags: at most five, narrowed by what is typed, in no
// scrolling box. A scrolling list of options, reached by the arrow keys from the field, is a region
// the keyboard cannot scroll to axe-core (scrollable-region-focusable, serious).
export const tagSuggestions = { limit: 5, withScrollArea: false } as const;
