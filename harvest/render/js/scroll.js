// Scrolls one screen down and reports whether the bottom is reached.
(function () {
  const se = document.scrollingElement || document.documentElement;
  window.scrollBy(0, Math.max(200, Math.floor(window.innerHeight * 0.9)));
  return se.scrollTop + window.innerHeight >= se.scrollHeight - 2;
})
