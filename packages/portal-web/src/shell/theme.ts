// Light and dark themes: the choice is kept in localStorage; without one the system preference decides.
// The theme is a `data-theme` attribute on <html>; styles.css swaps its colour variables on it.
import { useEffect, useState } from 'react';

export type Theme = 'light' | 'dark';
const KEY = 'portal.theme';

function initial(): Theme {
  const saved = window.localStorage.getItem(KEY);
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function useTheme(): [Theme, (t: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(initial);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return [
    theme,
    (t) => {
      window.localStorage.setItem(KEY, t);
      setTheme(t);
    },
  ];
}
