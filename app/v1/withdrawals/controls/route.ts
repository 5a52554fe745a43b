import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getControlsView } from '@/lib/withdrawal-controls/get-controls-view';
import { getWithdrawalControlsOp } from '@/lib/withdrawal-controls/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getWithdrawalControlsOp, ({ db, auth }) => getControlsView(db, auth)),
});
