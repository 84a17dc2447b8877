// The floor for bench:widgets: the ext-apps App alone, showing one number from the result. A view
// cannot be smaller or render sooner than this on the same host.
import { App, PostMessageTransport } from '@modelcontextprotocol/ext-apps';

const app = new App({ name: 'floor', version: '1.0.0' }, {}, { autoResize: true });
app.ontoolresult = (result) => {
  const p = document.createElement('p');
  p.textContent = `${JSON.stringify(result.structuredContent ?? {}).length} bytes of structured content`;
  document.body.replaceChildren(p);
};
void app.connect(new PostMessageTransport(window.parent, window.parent));
