import './styles.css';
import { getInstanceByDom } from 'echarts/core';
import { startDashboard } from './dashboard.js';
import { followLive } from './live.js';

/** ECharts' lookup of a chart by its element, for inspecting what a chart plots (`echarts.getInstanceByDom(el).getOption()`). */
(globalThis as { echarts?: unknown }).echarts = { getInstanceByDom };

void startDashboard(document).then((dashboard) => {
  const indicator = document.getElementById('live');
  if (indicator) followLive(indicator, () => void dashboard.refresh());
});
