(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var data = JSON.parse(document.getElementById("post-data").textContent);
    var app = document.getElementById("app");
    var art = document.createElement("article");
    art.className = "post dynamic-post";
    var h = document.createElement("h1");
    h.className = "post-title";
    h.textContent = data.title;
    art.appendChild(h);
    var meta = document.createElement("p");
    meta.className = "post-meta";
    meta.textContent = "By " + data.author + " on ";
    var t = document.createElement("time");
    t.setAttribute("datetime", data.date);
    t.textContent = data.display;
    meta.appendChild(t);
    art.appendChild(meta);
    var body = document.createElement("div");
    body.className = "post-body";
    body.innerHTML = data.html;
    art.appendChild(body);
    app.innerHTML = "";
    app.appendChild(art);
    document.body.classList.add("rendered");
  });
})();
