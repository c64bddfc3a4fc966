import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '@/app/app';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The public screens arrive prerendered (apps/web/prerender.mjs): take over that markup rather than repaint it.
if (root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);
