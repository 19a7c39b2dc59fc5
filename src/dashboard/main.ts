import './styles.css';
import { startDashboard } from './dashboard.js';
import { followLive } from './live.js';

void startDashboard(document).then((dashboard) => {
  const indicator = document.getElementById('live');
  if (indicator) followLive(indicator, () => void dashboard.refresh());
});
