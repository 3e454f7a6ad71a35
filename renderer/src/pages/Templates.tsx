import { useState } from 'react';
import { client } from '../api';
import { ErrorText, Page, when } from '../components/ui';
import { useAction, useLoad } from '../hooks';

const empty = { name: '', description: '', headContentPlain: '', tailContentPlain: '' };

export function Templates() {
  const list = useLoad(() => client.listTemplates().then((r) => r.templates));
  const { busy, error, run } = useAction();
  const [form, setForm] = useState(empty);
  const [editing, setEditing] = useState<string | undefined>();
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    void run(async () => {
      if (editing) await client.updateTemplate(editing, form);
      else await client.createTemplate(form);
      setForm(empty);
      setEditing(undefined);
      await list.reload();
    });
  };
  return (
    <Page title="Templates">
      <form className="panel" onSubmit={save} aria-label="Template">
        <h2>{editing ? 'Edit template' : 'New template'}</h2>
        <label className="field">Name<input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required /></label>
        <label className="field">Description<input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} /></label>
        <div className="grid2">
          <label className="field">Head (before the first post)<textarea value={form.headContentPlain} onChange={(e) => setForm({ ...form, headContentPlain: e.target.value })} /></label>
          <label className="field">Tail (after the last post)<textarea value={form.tailContentPlain} onChange={(e) => setForm({ ...form, tailContentPlain: e.target.value })} /></label>
        </div>
        <ErrorText error={error} />
        <div className="row"><button className="primary" type="submit" disabled={busy}>{editing ? 'Save' : 'Create'}</button>{editing && <button type="button" onClick={() => { setEditing(undefined); setForm(empty); }}>Cancel</button>}</div>
      </form>
      <div className="panel">
        <ErrorText error={list.error} />
        <table>
          <thead><tr><th>Name</th><th>Head</th><th>Tail</th><th>Updated</th><th /></tr></thead>
          <tbody>
            {list.data?.map((t) => (
              <tr key={t.uuid}>
                <td><b>{t.name}</b><div className="muted small">{t.description}</div></td>
                <td>{t.head_content_plain}</td><td>{t.tail_content_plain}</td><td className="muted small">{when(t.updated_at)}</td>
                <td><div className="row nowrap">
                  <button type="button" onClick={() => { setEditing(t.uuid); setForm({ name: t.name, description: t.description, headContentPlain: t.head_content_plain, tailContentPlain: t.tail_content_plain }); }}>Edit</button>
                  <button type="button" className="danger" onClick={() => void run(async () => { await client.deleteTemplate(t.uuid); await list.reload(); })}>Delete</button>
                </div></td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.length === 0 && <p className="muted">No templates yet.</p>}
      </div>
    </Page>
  );
}
