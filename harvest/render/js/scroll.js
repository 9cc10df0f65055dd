// Scrolls one screen down and, once the page has drawn two frames there (so
// lazy loaders and IntersectionObservers have run at this position), reports
// whether the bottom is reached. Frames come late when the browser's
// compositor is busy (another tab's tall screenshot or slow page, a loaded
// machine): going on before them scrolls past lazy images the page never
// saw, so a visible page is waited for however late its frames come (the
// settling's time bounds the wait). A hidden page draws no frames: it is
// scrolled on after 150 ms, as every page was.
(function () {
  const se = document.scrollingElement || document.documentElement;
  window.scrollBy(0, Math.max(200, Math.floor(window.innerHeight * 0.9)));
  const bottom = se.scrollTop + window.innerHeight >= se.scrollHeight - 2;
  return new Promise(function (resolve) {
    const done = function () { resolve(bottom); };
    if (document.visibilityState !== 'visible') {
      setTimeout(done, 150);
    }
    requestAnimationFrame(function () { requestAnimationFrame(done); });
  });
})
