// Progressive enhancement only: every page works without this file.
// Copy buttons, a theme switch and a filter box on the browse page. No inline script anywhere
// (the Content-Security-Policy forbids it), no network requests.
(function () {
  "use strict";
  var root = document.documentElement;
  var THEME_KEY = "skill-registry-theme";
  try {
    var saved = window.localStorage.getItem(THEME_KEY);
    if (saved === "light" || saved === "dark") root.setAttribute("data-theme", saved);
  } catch (e) { /* storage may be disabled */ }

  function ready(fn) {
    if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    var toggle = document.querySelector("[data-theme-toggle]");
    if (toggle) {
      var current = function () {
        var explicit = root.getAttribute("data-theme");
        if (explicit) return explicit;
        return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
      };
      var label = function () {
        var next = current() === "dark" ? "light" : "dark";
        toggle.textContent = next === "dark" ? "Dark theme" : "Light theme";
        toggle.setAttribute("aria-label", "Switch to the " + next + " theme");
      };
      toggle.hidden = false;
      label();
      toggle.addEventListener("click", function () {
        var next = current() === "dark" ? "light" : "dark";
        root.setAttribute("data-theme", next);
        try { window.localStorage.setItem(THEME_KEY, next); } catch (e) { /* ignore */ }
        label();
      });
    }

    Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), function (button) {
      var source = document.getElementById(button.getAttribute("data-copy"));
      if (!source || !navigator.clipboard) return;
      button.hidden = false;
      button.setAttribute("aria-label", "Copy command");
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(source.textContent).then(function () {
          button.textContent = "Copied";
          window.setTimeout(function () { button.textContent = "Copy"; }, 1500);
        }, function () { button.textContent = "Copy failed"; });
      });
    });

    var form = document.querySelector("[data-filter]");
    var list = document.querySelector("[data-filter-list]");
    if (form && list) {
      var input = form.querySelector("input[type=search]");
      var selects = Array.prototype.slice.call(form.querySelectorAll("select[data-attribute]"));
      var status = form.querySelector("[data-filter-status]");
      var items = Array.prototype.slice.call(list.children);
      var texts = items.map(function (item) { return item.textContent.toLowerCase(); });
      form.hidden = false;
      var apply = function (updateUrl) {
        var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
        var active = selects.filter(function (select) { return select.value; });
        var shown = 0;
        items.forEach(function (item, index) {
          var match = words.every(function (word) { return texts[index].indexOf(word) !== -1; }) &&
            active.every(function (select) {
              var value = item.getAttribute("data-" + select.getAttribute("data-attribute")) || "";
              return select.hasAttribute("data-contains") ? value.split(" ").indexOf(select.value) !== -1 : value === select.value;
            });
          item.hidden = !match;
          if (match) shown += 1;
        });
        status.textContent = (words.length || active.length) ? shown + " of " + items.length + " skills match" : "";
        if (updateUrl) {
          var params = new URLSearchParams();
          if (input.value) params.set("q", input.value);
          active.forEach(function (select) { params.set(select.name, select.value); });
          if (sorter && sorter.value) params.set(sorter.name, sorter.value);
          var query = params.toString();
          window.history.replaceState(null, "", query ? "?" + query : window.location.pathname);
        }
      };
      // Sorting reorders the cards in place; the order of the page (by address) breaks ties.
      var sorter = form.querySelector("select[data-sort]");
      var sortCards = function () {
        var key = sorter.value.replace(/-asc$/, "");
        var direction = /-asc$/.test(sorter.value) ? 1 : -1;
        var order = items.map(function (item, index) { return index; });
        if (key) {
          var value = function (index) { return Number(items[index].getAttribute("data-" + key)) || 0; };
          order.sort(function (a, b) { return (value(a) - value(b)) * direction || a - b; });
        }
        order.forEach(function (index) { list.appendChild(items[index]); });
      };
      var params = new URLSearchParams(window.location.search);
      input.value = params.get("q") || "";
      selects.forEach(function (select) {
        var wanted = params.get(select.name);
        if (wanted && Array.prototype.some.call(select.options, function (o) { return o.value === wanted; })) select.value = wanted;
        select.addEventListener("change", function () { apply(true); });
      });
      if (sorter) {
        var wantedSort = params.get(sorter.name);
        if (wantedSort && Array.prototype.some.call(sorter.options, function (o) { return o.value === wantedSort; })) sorter.value = wantedSort;
        sorter.addEventListener("change", function () { sortCards(); apply(true); });
        sortCards();
      }
      apply(false);
      input.addEventListener("input", function () { apply(true); });
      form.addEventListener("submit", function (event) { event.preventDefault(); });
    }
  });
})();
