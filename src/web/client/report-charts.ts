/** The static report's script: draws its charts from the run data embedded in the page (no network). */
import type { RunDetail } from '../../report/run-data';
import { drawRunCharts } from './charts';

const data = document.getElementById('run-data');
if (data?.textContent) drawRunCharts(JSON.parse(data.textContent) as RunDetail, (id) => document.getElementById(id));
