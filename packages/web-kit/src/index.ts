// The web kit both UIs share (`@app/web-kit`). Monaco lives in `@app/web-kit/monaco` (lazy, heavy), the
// generated API types in `@app/web-kit/api/ci` and `@app/web-kit/api/portal`, the styles in
// `@app/web-kit/styles.css`. Guide: docs/web-kit.md.
export {
  type ApiClient,
  type ApiClientOptions,
  ApiError,
  createApiClient,
  type ErrorShape,
  isClientError,
  type Method,
  queryString,
  type RequestOptions,
  readError,
} from './api/client';
export {
  type BodyOf,
  pathOf,
  type QueryOf,
  type ResponseOf,
  type RouteOf,
  type Send,
  type TypedOptions,
  typedCalls,
} from './api/typed';
export { Badge, StatusBadge, statusTone, type Tone } from './components/Badge';
export { Button, type ButtonProps, type ButtonVariant } from './components/Button';
export { Dialog, type DialogProps } from './components/Dialog';
export { LoadingState, Spinner } from './components/Spinner';
export { EmptyState, ErrorState, errorText } from './components/States';
export { type TabItem, Tabs } from './components/Tabs';
export { createAppRouter, parsePlainSearch, safeNext, stringifyPlainSearch } from './router/router';
export { type Shortcut, ShortcutsProvider, useShortcut } from './shortcuts/shortcuts';
export { type Theme, type ThemeChoice, ThemeProvider, ThemeToggle, useTheme } from './theme/theme';
export {
  type RowsVirtualizer,
  useVirtualRows,
  type VirtualRow,
  type VirtualRows,
  type VirtualRowsOptions,
} from './virtual/useVirtualRows';
export { type ListVirtualizer, VirtualList, type VirtualListProps } from './virtual/VirtualList';
