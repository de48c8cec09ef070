/** The static report's script: draws its charts from the run data embedded in the page (no network). */
import type { RunDetail } from '../../report/run-data';
import { chartSettings, drawRunCharts } from './charts';

// A file read without a cursor over it: legends name the series, without "--" for values not hovered.
chartSettings.liveLegend = false;
const data = document.getElementById('run-data');
if (data?.textContent) drawRunCharts(JSON.parse(data.textContent) as RunDetail, (id) => document.getElementById(id));
