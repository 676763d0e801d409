// Draws report.html's charts with ECharts from the JSON block that HtmlReport embeds.
(function () {
  var data = JSON.parse(document.getElementById('loomflux-data').textContent);
  var nines = function (x) { return (100 * (1 - Math.pow(10, -x))).toPrecision(Math.max(2, Math.ceil(x) + 1)) + '%'; };
  data.charts.forEach(function (c) {
    var el = document.getElementById(c.id);
    if (!el) { return; }
    var percentile = c.kind === 'percentile';
    // A mark may sit a second past a line's last point (the rule held as the warmup ended): keep it on the axis.
    var lastMark = Math.max.apply(null, c.series.map(function (s) { return s.mark == null ? -Infinity : s.mark; }));
    var series = c.series.map(function (s, i) {
      var line = { name: s.name, type: 'line', showSymbol: c.kind === 'capacity', data: s.data };
      if (s.mark != null) {
        line.markLine = { symbol: 'none', label: { formatter: '{c} s' }, data: [{ xAxis: s.mark }] };
      }
      if (i === 0 && c.bands && c.bands.length) {
        line.markArea = { silent: true, itemStyle: { opacity: 0.08 },
          data: c.bands.map(function (b) { return [{ name: b.name, xAxis: b.from }, { xAxis: b.to }]; }) };
      }
      return line;
    });
    echarts.init(el).setOption({
      animation: false,
      title: { text: c.title, textStyle: { fontSize: 13 } },
      tooltip: { trigger: 'axis' },
      legend: { top: 22, type: 'scroll' },
      grid: { top: 60, left: 60, right: 20, bottom: 40 },
      xAxis: { type: 'value', name: c.xName, nameLocation: 'middle', nameGap: 25, min: 'dataMin',
        max: function (v) { return Math.max(v.max, lastMark); },
        axisLabel: percentile ? { formatter: nines } : {} },
      yAxis: { type: percentile ? 'log' : 'value', name: c.yName, scale: !percentile },
      series: series
    });
  });
})();
