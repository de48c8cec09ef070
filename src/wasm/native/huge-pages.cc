// Transparent huge pages for a WebAssembly memory (src/wasm/huge-pages.ts loads this; npm run build:native
// builds it). An n-tuple network's tables are hundreds of MiB read at random: with 4 KiB pages nearly every
// read also misses the TLB and walks the page tables, and the processor walks only a few at once. Linux backs
// an anonymous mapping with 2 MiB pages when the program asks (madvise MADV_HUGEPAGE; the default
// "madvise" setting of /sys/kernel/mm/transparent_hugepage/enabled gives them only to programs that ask), and
// JavaScript cannot ask: this is the one call it needs, on the memory's own backing store.
#include <node.h>
#include <sys/mman.h>
#include <cerrno>
#include <cstdint>

namespace {

constexpr uintptr_t HUGE_PAGE = uintptr_t(1) << 21;

// advise(buffer, bytes): madvise(MADV_HUGEPAGE) over the whole 2 MiB pages inside the first `bytes` of a
// SharedArrayBuffer or ArrayBuffer. Returns [start, length] of the advised range (length 0: none fits), or
// a negative errno when the kernel refused.
void Advise(const v8::FunctionCallbackInfo<v8::Value>& args) {
  v8::Isolate* isolate = args.GetIsolate();
  std::shared_ptr<v8::BackingStore> store;
  if (args.Length() >= 2 && args[0]->IsSharedArrayBuffer()) store = args[0].As<v8::SharedArrayBuffer>()->GetBackingStore();
  else if (args.Length() >= 2 && args[0]->IsArrayBuffer()) store = args[0].As<v8::ArrayBuffer>()->GetBackingStore();
  if (!store || !args[1]->IsNumber()) {
    isolate->ThrowException(v8::Exception::TypeError(v8::String::NewFromUtf8Literal(isolate, "advise(buffer, bytes): an ArrayBuffer or SharedArrayBuffer and a byte count")));
    return;
  }
  const uintptr_t data = reinterpret_cast<uintptr_t>(store->Data());
  double asked = args[1].As<v8::Number>()->Value();
  const double held = static_cast<double>(store->ByteLength());
  if (!(asked >= 0) || asked > held) asked = held;
  const uintptr_t start = (data + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  const uintptr_t end = (data + static_cast<uintptr_t>(asked)) & ~(HUGE_PAGE - 1);
  const uintptr_t length = end > start ? end - start : 0;
  if (length > 0 && madvise(reinterpret_cast<void*>(start), length, MADV_HUGEPAGE) != 0) {
    args.GetReturnValue().Set(-errno);
    return;
  }
  v8::Local<v8::Array> range = v8::Array::New(isolate, 2);
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  range->Set(context, 0, v8::Number::New(isolate, static_cast<double>(start))).Check();
  range->Set(context, 1, v8::Number::New(isolate, static_cast<double>(length))).Check();
  args.GetReturnValue().Set(range);
}

}  // namespace

// Context-aware: worker threads that build a network machine load it too.
NODE_MODULE_INIT() { NODE_SET_METHOD(exports, "advise", Advise); }
