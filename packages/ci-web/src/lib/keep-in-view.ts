// Brings an element to the middle of the window and keeps it there while the page around it still settles
// (the graph's chunk arriving above it, panels growing as the run is polled), until the reader takes over by
// scrolling, clicking or typing. Used for a linked log line: the log sits below the fold of a run page, and
// browsers' own scroll anchoring is not everywhere (Safari) nor guaranteed to pick an element inside it.

const READER_EVENTS = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/** Centres `el` in the window now and after every layout change of the page; returns the stop function. */
export function keepInView(el: Element): () => void {
  const center = () => el.scrollIntoView({ block: 'center', inline: 'nearest' });
  center();
  const observer = new ResizeObserver(() => {
    if (el.isConnected) center();
  });
  observer.observe(document.body);
  const stop = () => {
    observer.disconnect();
    for (const type of READER_EVENTS) window.removeEventListener(type, stop, true);
  };
  for (const type of READER_EVENTS) window.addEventListener(type, stop, { capture: true, passive: true });
  return stop;
}
