import { render } from 'preact';
import '../shared/theme.css';
import './console.css';
import { App } from './app.js';

render(<App />, document.getElementById('app')!);
