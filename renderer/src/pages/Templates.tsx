import { useState } from 'react';
import { client } from '../api';
import { Empty, ErrorText, Loading, Page } from '../components/ui';
import { Time } from '../components/time';
import { useHeld, withUndo } from '../components/undo';
import { useAction, useLoad } from '../hooks';

const empty = { name: '', description: '', headContentPlain: '', tailContentPlain: '' };

export function Templates() {
  const list = useLoad(() => client.listTemplates().then((r) => r.templates));
  const { busy, error, run } = useAction();
  const [form, setForm] = useState(empty);
  const [editing, setEditing] = useState<string | undefined>();
  const held = useHeld();
  const shown = list.data?.filter((t) => !held(`template:${t.uuid}`));
  // Deleting waits 10 s for Undo: the template keeps its id, so drafts made from it keep their link.
  const remove = (t: { uuid: string; name: string }) => {
    if (editing === t.uuid) {
      setEditing(undefined);
      setForm(empty);
    }
    withUndo({
      key: `template:${t.uuid}`,
      text: `Deleted the template “${t.name}”.`,
      commit: () => client.deleteTemplate(t.uuid),
      done: () => list.reload(),
    });
  };
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
        <label className="field">
          Name
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required />
        </label>
        <label className="field">
          Description
          <input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        </label>
        <div className="grid2">
          <label className="field">
            Head (before the first post)
            <textarea
              value={form.headContentPlain}
              onChange={(e) => setForm({ ...form, headContentPlain: e.target.value })}
            />
          </label>
          <label className="field">
            Tail (after the last post)
            <textarea
              value={form.tailContentPlain}
              onChange={(e) => setForm({ ...form, tailContentPlain: e.target.value })}
            />
          </label>
        </div>
        <ErrorText error={error} />
        <div className="row">
          <button className="primary" type="submit" disabled={busy}>
            {editing ? 'Save' : 'Create'}
          </button>
          {editing && (
            <button
              type="button"
              onClick={() => {
                setEditing(undefined);
                setForm(empty);
              }}
            >
              Cancel
            </button>
          )}
        </div>
      </form>
      <div className="panel">
        <ErrorText error={list.error} />
        {list.loading && !list.data && <Loading what="Loading templates" />}
        {shown && shown.length > 0 && (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Head</th>
                <th>Tail</th>
                <th>Updated</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {shown.map((t) => (
                <tr key={t.uuid} data-template={t.uuid}>
                  <td data-label="Name" className="wrap">
                    <b>{t.name}</b>
                    <div className="muted small">{t.description}</div>
                  </td>
                  <td data-label="Head" className="wrap pre">
                    {t.head_content_plain}
                  </td>
                  <td data-label="Tail" className="wrap pre">
                    {t.tail_content_plain}
                  </td>
                  <td data-label="Updated" className="muted small">
                    <Time at={t.updated_at} />
                  </td>
                  <td>
                    <div className="row actions">
                      <button
                        type="button"
                        onClick={() => {
                          setEditing(t.uuid);
                          setForm({
                            name: t.name,
                            description: t.description,
                            headContentPlain: t.head_content_plain,
                            tailContentPlain: t.tail_content_plain,
                          });
                        }}
                      >
                        Edit
                      </button>
                      <button type="button" className="danger" onClick={() => remove(t)}>
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {shown?.length === 0 && (
          <Empty>No templates yet. A template adds a head before the first post and a tail after the last.</Empty>
        )}
      </div>
    </Page>
  );
}
