import { newId } from '@shiplog/events';
import { eventStoreContract } from './contract.ts';
import { EsdbEventStore } from './esdb.ts';

// Runs only against a real EventStoreDB / KurrentDB server (e.g. `docker compose up -d eventstore` and
// EVENTSTORE_URL=esdb://localhost:2113?tls=false). Without one, the suite reports itself as not run.
const url = process.env.EVENTSTORE_URL;

eventStoreContract(
  'EventStoreDB',
  async () => {
    // A fresh namespace per run keeps runs apart on a shared server.
    const store = new EsdbEventStore(url!, `contract_${newId().replaceAll('-', '')}`);
    return { store, dispose: () => store.close() };
  },
  { run: Boolean(url), reason: 'EVENTSTORE_URL is not set' },
);
