(function () {
  "use strict";
  var PAGE = 10;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text) { e.textContent = text; }
    return e;
  }
  function render(c) {
    var a = el("article", "comment");
    a.id = c.id;
    if (c.parent) { a.setAttribute("data-parent", c.parent); }
    var h = el("header", "comment-meta");
    h.appendChild(el("span", "comment-author", c.author));
    h.appendChild(document.createTextNode(" "));
    var link = el("a", "comment-permalink");
    link.href = "#" + c.id;
    var t = el("time", "", c.display);
    t.setAttribute("datetime", c.date);
    link.appendChild(t);
    h.appendChild(link);
    a.appendChild(h);
    var body = el("div", "comment-body");
    body.innerHTML = c.html;
    a.appendChild(body);
    a.appendChild(el("div", "replies"));
    return a;
  }
  function place(list, c) {
    var node = render(c);
    var parent = c.parent && document.getElementById(c.parent);
    if (parent) {
      parent.querySelector(".replies").appendChild(node);
    } else {
      list.appendChild(node);
    }
  }
  function start(section) {
    var list = section.querySelector(".comment-list");
    var more = section.querySelector(".load-more");
    fetch(section.getAttribute("data-comments"), {credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (data) {
        var shown = 0;
        function next() {
          var end = Math.min(shown + PAGE, data.comments.length);
          for (; shown < end; shown++) { place(list, data.comments[shown]); }
          more.hidden = shown >= data.comments.length;
          section.setAttribute("data-shown", String(shown));
        }
        more.addEventListener("click", next);
        next();
        section.classList.add("comments-loaded");
      })
      .catch(function () { list.textContent = "Comments could not be loaded."; });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var all = document.querySelectorAll("section[data-comments]");
    for (var i = 0; i < all.length; i++) { start(all[i]); }
  });
})();
