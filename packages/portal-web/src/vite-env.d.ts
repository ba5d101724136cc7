// Vite client types: `?worker` imports and import.meta.env.
/// <reference types="vite/client" />
