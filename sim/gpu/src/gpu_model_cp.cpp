// GpuSim on gpu_cp: the CP and memory system with the pipeline stand-in (GpuSimConfig::slices
// = 0). Its own library (tessera_gpu_model_cp, an object library so the strong definition
// always replaces gpu_sim.cpp's weak reference), linked only by the programs that run it.
#include "Vgpu_cp.h"
#include "gpu_sim_impl.hpp"

namespace tessera::sim {

std::unique_ptr<GpuSim::Impl> make_gpu_cp_model(GpuSimConfig cfg) {
  return std::make_unique<ModelImpl<Vgpu_cp>>(std::move(cfg), 2);   // 2 pc clients: host port, stand-in
}

}  // namespace tessera::sim
