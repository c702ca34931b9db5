// Progressive enhancement only: every page works without this file.
// Copy buttons, a theme switch, a filter box on the browse pages and the browse page's old ?sort= addresses.
// No inline script anywhere (the Content-Security-Policy forbids it), no network requests.
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

    // A listing's orders are static pages (browse/<order>/, browse/page/<n>/). The browse page's former
    // ?sort=<order> addresses lead to the page of that order, keeping the filters.
    var params = new URLSearchParams(window.location.search);
    var wantedSort = params.get("sort");
    if (wantedSort !== null) {
      var sortLink = Array.prototype.filter.call(document.querySelectorAll("a[data-sort]"), function (a) {
        return a.getAttribute("data-sort") === wantedSort;
      })[0];
      params.delete("sort");
      if (sortLink && sortLink.getAttribute("aria-current") !== "true") {
        var rest = params.toString();
        window.location.replace(sortLink.getAttribute("href") + (rest ? "?" + rest : ""));
        return;
      }
      var kept = params.toString();
      window.history.replaceState(null, "", kept ? "?" + kept : window.location.pathname);
    }

    var form = document.querySelector("[data-filter]");
    var list = document.querySelector("[data-filter-list]");
    if (form && list) {
      var input = form.querySelector("input[type=search]");
      var selects = Array.prototype.slice.call(form.querySelectorAll("select[data-attribute]"));
      var status = form.querySelector("[data-filter-status]");
      var searchAll = form.querySelector("a[data-search-all]");
      var categoryAll = form.querySelector("[data-category-all]");
      var onePage = !form.hasAttribute("data-filter-page");
      var items = Array.prototype.slice.call(list.children);
      var texts = items.map(function (item) { return item.textContent.toLowerCase(); });
      // The sort and page links carry the filters on: each page filters its own skills the same way.
      var carried = Array.prototype.map.call(document.querySelectorAll("a[data-keep-query]"), function (a) {
        return { link: a, href: a.getAttribute("href") };
      });
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
        status.textContent = (words.length || active.length)
          ? shown + " of " + items.length + (onePage ? " skills match" : " skills on this page match") : "";
        var query = new URLSearchParams();
        if (input.value) query.set("q", input.value);
        active.forEach(function (select) { query.set(select.name, select.value); });
        var text = query.toString();
        carried.forEach(function (entry) { entry.link.setAttribute("href", entry.href + (text ? "?" + text : "")); });
        if (searchAll) {
          var search = new URLSearchParams();  // the search page's own filters (it has no version filter)
          ["q", "category", "tier", "risk", "dialect"].forEach(function (name) {
            if (query.get(name)) search.set(name, query.get(name));
          });
          var searchText = search.toString();
          searchAll.setAttribute("href", searchAll.getAttribute("href").split("?")[0] + (searchText ? "?" + searchText : ""));
        }
        if (categoryAll) {  // a category's own pages hold all of its skills
          var category = form.querySelector("select[name=category]");
          var option = category && category.value ? category.options[category.selectedIndex] : null;
          var categoryLink = categoryAll.querySelector("a[data-category-link]");
          categoryAll.hidden = !(option && option.getAttribute("data-url"));
          if (!categoryAll.hidden) {
            categoryLink.setAttribute("href", option.getAttribute("data-url"));
            categoryLink.textContent = "every skill in " + category.value;
          }
        }
        if (updateUrl) window.history.replaceState(null, "", text ? "?" + text : window.location.pathname);
      };
      input.value = params.get("q") || "";
      selects.forEach(function (select) {
        var wanted = params.get(select.name);
        if (wanted && Array.prototype.some.call(select.options, function (o) { return o.value === wanted; })) select.value = wanted;
        select.addEventListener("change", function () { apply(true); });
      });
      apply(false);
      input.addEventListener("input", function () { apply(true); });
      form.addEventListener("submit", function (event) { event.preventDefault(); });
    }
  });
})();
