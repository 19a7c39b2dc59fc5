import './styles.css';
import { startDashboard } from './dashboard.js';

void startDashboard(document);
