// Draws report.html's charts with ECharts from the JSON block that HtmlReport embeds.
(function () {
  var data = JSON.parse(document.getElementById('loomflux-data').textContent);
  var nines = function (x) { return (100 * (1 - Math.pow(10, -x))).toPrecision(Math.max(2, Math.ceil(x) + 1)) + '%'; };
  var palette = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4'];
  // A sweep's map: one cell per grid point, coloured by its clear winner (paler the narrower the margin), grey without one;
  // the text says who and by how much.
  var heatmap = function (el, c) {
    var pieces = [{ value: -1, label: 'no clear winner', color: '#d9d9d9' }].concat(c.targets.map(function (t, i) {
      return { value: i, label: t, color: palette[i % palette.length] };
    }));
    echarts.init(el).setOption({
      animation: false,
      title: { text: c.title, textStyle: { fontSize: 13 } },
      tooltip: { formatter: function (p) { return c.x[p.value[0]] + ' / ' + c.y[p.value[1]] + ': ' + p.value[3]; } },
      grid: { top: 60, left: 70, right: 20, bottom: 70 },
      xAxis: { type: 'category', data: c.x, name: c.xName, nameLocation: 'middle', nameGap: 25 },
      yAxis: { type: 'category', data: c.y, name: c.yName },
      visualMap: [{ type: 'piecewise', pieces: pieces, dimension: 2, orient: 'horizontal', left: 'center', bottom: 0 },
        { type: 'continuous', dimension: 4, min: 0, max: 1, inRange: { colorAlpha: [0, 1] }, show: false }],
      series: [{ type: 'heatmap', data: c.cells, label: { show: true, fontSize: 10, formatter: function (p) { return p.value[3]; } } }]
    });
  };
  // A metric against one axis: a line per target with its 95% confidence band (stacked: lower bound, then the band's height).
  var sweepLines = function (el, c) {
    var series = [];
    c.series.forEach(function (s, i) {
      var color = palette[i % palette.length];
      series.push({ name: s.name, type: 'line', data: s.data.map(function (p) { return p[0]; }), itemStyle: { color: color }, connectNulls: false });
      series.push({ name: s.name, type: 'line', stack: 'ci' + i, data: s.data.map(function (p) { return p[1]; }), lineStyle: { opacity: 0 },
        symbol: 'none', tooltip: { show: false } });
      series.push({ name: s.name, type: 'line', stack: 'ci' + i, data: s.data.map(function (p) { return p[1] == null ? null : p[2] - p[1]; }),
        lineStyle: { opacity: 0 }, areaStyle: { color: color, opacity: 0.15 }, symbol: 'none', tooltip: { show: false } });
    });
    echarts.init(el).setOption({
      animation: false,
      title: { text: c.title, textStyle: { fontSize: 13 } },
      tooltip: { trigger: 'axis' },
      legend: { top: 22, type: 'scroll', data: c.series.map(function (s) { return s.name; }) },
      grid: { top: 60, left: 60, right: 20, bottom: 40 },
      xAxis: { type: 'category', data: c.x, name: c.xName, nameLocation: 'middle', nameGap: 25 },
      yAxis: { type: 'value', name: c.yName, scale: true },
      series: series
    });
  };
  // Each target's CPU per request, one bar stacked by category, in the categories' order.
  var bars = function (el, c) {
    echarts.init(el).setOption({
      animation: false,
      title: { text: c.title, textStyle: { fontSize: 13 } },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 22, type: 'scroll' },
      grid: { top: 60, left: 90, right: 20, bottom: 40 },
      xAxis: { type: 'value', name: c.xName, nameLocation: 'middle', nameGap: 25 },
      yAxis: { type: 'category', data: c.targets },
      series: c.series.map(function (s, i) {
        return { name: s.name, type: 'bar', stack: 'cpu', data: s.data, itemStyle: { color: categoryColors[i % categoryColors.length] } };
      })
    });
  };
  var categoryColors = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc', '#8d6e63', '#607d8b'];
  // A flame graph: each frame a box [from, to] on the x axis at its depth, root at the bottom, coloured by its category (grey:
  // no rule names it) or, in a differential graph, red where the first target spends more per request in a method, blue where
  // less, full at the whole difference between the two.
  // Clicking a frame zooms the x axis to it; clicking the root returns. The chart's height follows the deepest stack.
  var flame = function (el, c) {
    var frames = c.series[0].data;
    var depth = frames.reduce(function (d, f) { return Math.max(d, f[2]); }, 0) + 1;
    var diff = c.kind === 'flamediff';
    var fill = function (f) {
      if (diff) {
        var x = Math.min(1, Math.abs(f[6]) / (c.full || 1)), v = Math.round(255 * (1 - 0.8 * x));
        return f[6] >= 0 ? 'rgb(255,' + v + ',' + v + ')' : 'rgb(' + v + ',' + v + ',255)';
      }
      return f[4] < 0 ? '#c8c8c8' : categoryColors[f[4] % categoryColors.length];
    };
    var total = frames.length ? frames[0][1] : 1;
    el.style.gridColumn = '1 / -1';
    el.style.height = Math.max(200, 70 + 17 * depth) + 'px';
    var chart = echarts.init(el);
    chart.setOption({
      animation: false,
      title: { text: c.title, textStyle: { fontSize: 13 } },
      tooltip: { formatter: function (p) {
        var f = p.value, what = c.names[f[3]] + ': ' + f[5] + ' ' + c.xName;
        if (diff) { what += '; in this method ' + (f[6] >= 0 ? '+' : '') + f[6] + ' against ' + c.b; }
        else if (f[4] >= 0) { what += ' (' + c.categories[f[4]] + ')'; }
        return echarts.format.encodeHTML(what);
      } },
      grid: { top: 40, left: 10, right: 10, bottom: 10 },
      xAxis: { type: 'value', min: 0, max: total, show: false },
      yAxis: { type: 'value', min: 0, max: depth, show: false },
      series: [{ type: 'custom', data: frames, encode: { x: [0, 1], y: 2 },
        renderItem: function (params, api) {
          var start = api.coord([api.value(0), api.value(2)]), end = api.coord([api.value(1), api.value(2) + 1]);
          var width = end[0] - start[0], f = frames[params.dataIndex], name = c.names[f[3]];
          var rect = echarts.graphic.clipRectByRect({ x: start[0], y: end[1], width: width, height: start[1] - end[1] - 1 },
            { x: params.coordSys.x, y: params.coordSys.y, width: params.coordSys.width, height: params.coordSys.height });
          if (!rect || rect.width < 0.5) { return null; }
          var chars = Math.floor((rect.width - 4) / 6.5);
          return { type: 'rect', shape: rect, style: { fill: fill(f), stroke: '#fff', lineWidth: 0.5 },
            textContent: { style: { text: chars > 2 ? (name.length > chars ? name.slice(0, chars - 1) + '…' : name) : '', fontSize: 11, fill: '#222' } },
            textConfig: { position: 'insideLeft' } };
        } }]
    });
    chart.on('click', function (p) {
      var f = frames[p.dataIndex];
      chart.setOption({ xAxis: { min: f[2] === 0 ? 0 : f[0], max: f[2] === 0 ? total : f[1] } });
    });
  };
  data.charts.forEach(function (c) {
    var el = document.getElementById(c.id);
    if (!el) { return; }
    if (c.kind === 'bars') { bars(el, c); return; }
    if (c.kind === 'flame' || c.kind === 'flamediff') { flame(el, c); return; }
    if (c.kind === 'heatmap') { heatmap(el, c); return; }
    if (c.kind === 'sweep') { sweepLines(el, c); return; }
    var percentile = c.kind === 'percentile';
    // A mark may sit a second past a line's last point (the rule held as the warmup ended): keep it on the axis.
    var lastMark = Math.max.apply(null, c.series.map(function (s) { return s.mark == null ? -Infinity : s.mark; }));
    var series = c.series.map(function (s, i) {
      var line = { name: s.name, type: 'line', showSymbol: c.kind === 'capacity', data: s.data };
      if (s.dashed) {
        line.lineStyle = { type: 'dashed' };
      }
      if (s.mark != null) {
        line.markLine = { symbol: 'none', label: { formatter: '{c} s' }, data: [{ xAxis: s.mark }] };
      }
      if (i === 0 && c.bands && c.bands.length) {
        line.markArea = { silent: true, itemStyle: { opacity: 0.08 },
          data: c.bands.map(function (b) { return [{ name: b.name, xAxis: b.from }, { xAxis: b.to }]; }) };
      }
      return line;
    });
    // A limit the lines are judged by: a horizontal line, always on the axis.
    if (c.limit != null && series.length) {
      series[0].markLine = series[0].markLine || { symbol: 'none', data: [] };
      series[0].markLine.data.push({ yAxis: c.limit, lineStyle: { color: '#d33', type: 'solid' }, label: { position: 'insideEndTop', formatter: 'limit ' + c.limit + '%' } });
    }
    echarts.init(el).setOption({
      animation: false,
      title: { text: c.title, textStyle: { fontSize: 13 } },
      tooltip: { trigger: 'axis' },
      legend: { top: 22, type: 'scroll' },
      grid: { top: 60, left: 60, right: 20, bottom: 40 },
      xAxis: { type: 'value', name: c.xName, nameLocation: 'middle', nameGap: 25, min: 'dataMin',
        max: function (v) { return Math.max(v.max, lastMark); },
        axisLabel: percentile ? { formatter: nines } : {} },
      yAxis: c.limit != null ? { type: 'value', name: c.yName, min: 0, max: function (v) { return Math.max(v.max, c.limit * 1.25); } }
        : { type: percentile ? 'log' : 'value', name: c.yName, scale: !percentile },
      series: series
    });
  });
})();
