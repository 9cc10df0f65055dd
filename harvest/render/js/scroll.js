// Scrolls one screen (0.9 of the frame's viewport, at least 200 px in a
// viewport of more than 222 px) down and, once the page has drawn two frames
// there (so lazy loaders and IntersectionObservers have run at this
// position), reports whether the bottom is reached. It runs in the main
// frame and in every other frame alike. A frame whose document is no taller
// than its viewport, or whose viewport has no height (a hidden or
// zero-height iframe: nothing in it is ever in view), reports its bottom at
// once, without scrolling or waiting for a drawing: most frames are short.
// Frames come late when the browser's compositor is busy (another tab's
// tall screenshot or slow page, a loaded machine): going on before them
// scrolls past lazy images the page never saw, so a visible page is waited
// for however late its frames come (the settling's time bounds the wait). A
// hidden page draws no frames: it is scrolled on after 150 ms, as every page
// was.
(function () {
  const se = document.scrollingElement || document.documentElement;
  const h = window.innerHeight;
  if (h <= 0 || se.scrollHeight <= h + 2) {
    return true;
  }
  // Not more than a screen of a small frame, not to step over its content.
  window.scrollBy(0, Math.min(h, Math.max(200, Math.floor(h * 0.9))));
  const bottom = se.scrollTop + h >= se.scrollHeight - 2;
  return new Promise(function (resolve) {
    const done = function () { resolve(bottom); };
    if (document.visibilityState !== 'visible') {
      setTimeout(done, 150);
    }
    requestAnimationFrame(function () { requestAnimationFrame(done); });
  });
})
