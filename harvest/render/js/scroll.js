// Scrolls one screen down and, once the page has drawn two frames there (so
// lazy loaders and IntersectionObservers have run), reports whether the
// bottom is reached.
(function () {
  const se = document.scrollingElement || document.documentElement;
  window.scrollBy(0, Math.max(200, Math.floor(window.innerHeight * 0.9)));
  const bottom = se.scrollTop + window.innerHeight >= se.scrollHeight - 2;
  return new Promise(function (resolve) {
    const done = function () { resolve(bottom); };
    setTimeout(done, 150);
    requestAnimationFrame(function () { requestAnimationFrame(done); });
  });
})
