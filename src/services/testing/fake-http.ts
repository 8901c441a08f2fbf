// The app's http client answered by a fake adapter, signed in as 'token-1': what a page test installs
// before each test and removes after it.
import { configureHttp, http } from '../http';
import { createFakeAdapter, type RecordedRequest, type Responder } from './fake-adapter';

export function installFakeHttp(responder: Responder): {
  requests: RecordedRequest[];
  uninstall: () => void;
} {
  const original = http.defaults.adapter;
  const fake = createFakeAdapter(responder);
  http.defaults.adapter = fake.adapter;
  const unconfigure = configureHttp({
    getAccessToken: () => 'token-1',
    notifyError: () => {},
    onTask: () => {},
  });
  return {
    requests: fake.requests,
    uninstall: () => {
      unconfigure();
      http.defaults.adapter = original;
    },
  };
}
