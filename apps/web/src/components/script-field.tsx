import { BIDI_CONTROL_MESSAGE, hasNoBidiControls, LIMITS } from '@hookreel/contracts';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';

/**
 * The script the actor says: counted against LIMITS.scriptMax (longer pastes are cut there) and refused at once
 * when it carries bidi controls. `note` is shown under it and describes the field while it is given.
 */
export function ScriptField({
  id,
  rows,
  placeholder,
  value,
  onChange,
  note,
}: {
  id: string;
  rows: number;
  placeholder: string;
  value: string;
  onChange: (script: string) => void;
  note?: string | null;
}) {
  const noteId = `${id}-note`;
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between">
        <Label htmlFor={id}>Script</Label>
        <span className="text-xs text-muted-foreground">
          {value.length}/{LIMITS.scriptMax}
        </span>
      </div>
      <Textarea
        id={id}
        rows={rows}
        maxLength={LIMITS.scriptMax}
        placeholder={placeholder}
        value={value}
        aria-describedby={note ? noteId : undefined}
        onChange={(e) => onChange(e.target.value.slice(0, LIMITS.scriptMax))}
      />
      {note ? (
        <p id={noteId} className="text-xs text-muted-foreground">
          {note}
        </p>
      ) : null}
      {hasNoBidiControls(value) ? null : (
        <p role="alert" className="text-xs text-destructive">
          {BIDI_CONTROL_MESSAGE}
        </p>
      )}
    </div>
  );
}
