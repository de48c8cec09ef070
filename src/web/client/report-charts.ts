/** The static reports' script: draws a report's charts from the data embedded in its page (no network): a tuning run's or a learning run's. */
import type { RunDetail } from '../../report/run-data';
import type { LearnPoint } from '../../report/learn-data';
import { chartSettings, drawLearnCharts, drawRunCharts } from './charts';

// A file read without a cursor over it: legends name the series, without "--" for values not hovered.
chartSettings.liveLegend = false;
const data = document.getElementById('run-data');
if (data?.textContent) drawRunCharts(JSON.parse(data.textContent) as RunDetail, (id) => document.getElementById(id));
const learn = document.getElementById('learn-data');
if (learn?.textContent) drawLearnCharts((JSON.parse(learn.textContent) as { curve: LearnPoint[] }).curve, (id) => document.getElementById(id));
