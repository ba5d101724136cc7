// Brings an element to the middle of the window and keeps it there while the page above it still settles
// (the graph's chunk arriving, panels growing as the run is polled), until the reader takes over by
// scrolling, clicking or typing. Used for a linked log line: the log sits below the fold of a run page, and
// browsers' own scroll anchoring is not everywhere (Safari) nor guaranteed to pick an element inside it.
// Only a move of the element itself re-centres it (changes below it or in width alone do nothing), and any
// scroll of the window that this did not make ends the hold, so it never fights the reader or a tool.

const READER_EVENTS = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/** Centres `el` in the window now and again whenever the page moves it; returns the stop function. */
export function keepInView(el: Element): () => void {
  let top = 0;
  let scrolledTo = 0;
  const pageTop = () => el.getBoundingClientRect().top + window.scrollY;
  const center = () => {
    el.scrollIntoView({ block: 'center', inline: 'nearest' });
    scrolledTo = window.scrollY;
    top = pageTop();
  };
  const observer = new ResizeObserver(() => {
    if (!el.isConnected) stop();
    else if (Math.abs(pageTop() - top) > 1) center();
  });
  const onScroll = () => {
    if (Math.abs(window.scrollY - scrolledTo) > 1) stop();
  };
  function stop() {
    observer.disconnect();
    window.removeEventListener('scroll', onScroll);
    for (const type of READER_EVENTS) window.removeEventListener(type, stop, true);
  }
  center();
  observer.observe(document.body);
  window.addEventListener('scroll', onScroll, { passive: true });
  for (const type of READER_EVENTS) window.addEventListener(type, stop, { capture: true, passive: true });
  return stop;
}
