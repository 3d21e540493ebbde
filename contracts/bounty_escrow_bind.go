// Code generated - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package contracts

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = errors.New
	_ = big.NewInt
	_ = strings.NewReader
	_ = ethereum.NotFound
	_ = bind.Bind
	_ = common.Big1
	_ = types.BloomLookup
	_ = event.NewSubscription
	_ = abi.ConvertType
	_ = time.Tick
	_ = context.Background
)

// BountyEscrowMetaData contains all meta data concerning the BountyEscrow contract.
var BountyEscrowMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractIERC20\",\"name\":\"usdc_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"settler_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"}],\"name\":\"AlreadyClaimed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"AlreadyRefunded\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"AlreadySettled\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"remaining\",\"type\":\"uint256\"}],\"name\":\"ClaimExceedsTotal\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidProof\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"expected\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"given\",\"type\":\"bytes32\"}],\"name\":\"NonceMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotFunded\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotSettled\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"NotSettler\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NothingToRefund\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ReentrancyGuardReentrantCall\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint64\",\"name\":\"current\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"requested\",\"type\":\"uint64\"}],\"name\":\"RefundAfterLowered\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint64\",\"name\":\"refundAfter\",\"type\":\"uint64\"}],\"name\":\"RefundTooEarly\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"bits\",\"type\":\"uint8\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"SafeCastOverflowedUintDowncast\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"SafeERC20FailedOperation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"total\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"funded\",\"type\":\"uint256\"}],\"name\":\"TotalExceedsFunded\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAmount\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroRoot\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sponsor\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"total\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint64\",\"name\":\"refundAfter\",\"type\":\"uint64\"}],\"name\":\"BountyFunded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sponsor\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"BountyRefunded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sponsor\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"total\",\"type\":\"uint256\"}],\"name\":\"BountySettled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sponsor\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"PayoutClaimed\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"internalType\":\"uint64\",\"name\":\"refundAfter\",\"type\":\"uint64\"}],\"name\":\"authorizationNonce\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"sponsor\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"}],\"name\":\"claim\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"refundAfter\",\"type\":\"uint64\"}],\"name\":\"fund\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"refundAfter\",\"type\":\"uint64\"},{\"internalType\":\"uint256\",\"name\":\"validAfter\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"validBefore\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"uint8\",\"name\":\"v\",\"type\":\"uint8\"},{\"internalType\":\"bytes32\",\"name\":\"r\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"s\",\"type\":\"bytes32\"}],\"name\":\"fundWithAuthorization\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"sponsor\",\"type\":\"address\"}],\"name\":\"fundedOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"sponsor\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"}],\"name\":\"isClaimed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"payoutLeaf\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"}],\"name\":\"refund\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"sponsor\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"total\",\"type\":\"uint256\"}],\"name\":\"settle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"settler\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"jobKey\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"sponsor\",\"type\":\"address\"}],\"name\":\"slotOf\",\"outputs\":[{\"internalType\":\"enumBountyEscrow.Status\",\"name\":\"status\",\"type\":\"uint8\"},{\"internalType\":\"uint256\",\"name\":\"funded\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"total\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"claimed\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"},{\"internalType\":\"uint64\",\"name\":\"refundAfter\",\"type\":\"uint64\"},{\"internalType\":\"bool\",\"name\":\"excessRefunded\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"usdc\",\"outputs\":[{\"internalType\":\"contractIERC20\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	Bin: "0x60c060405234801561000f575f5ffd5b506040516113e83803806113e883398101604081905261002e9161009b565b60015f556001600160a01b038216158061004f57506001600160a01b038116155b1561006d5760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b039182166080521660a0526100d3565b6001600160a01b0381168114610098575f5ffd5b50565b5f5f604083850312156100ac575f5ffd5b82516100b781610084565b60208401519092506100c881610084565b809150509250929050565b60805160a0516112d26101165f395f818161016d015261089701525f818160cf01528181610356015281816105ef015281816108020152610b0401526112d25ff3fe608060405234801561000f575f5ffd5b50600436106100b1575f3560e01c8063ab221a761161006e578063ab221a7614610168578063b50a09d41461018f578063dfc118f614610224578063e06c9ba014610237578063ed2ad6d41461024a578063fcbc9bc81461025d575f5ffd5b80632e6477a6146100b55780633e413bee146100ca57806344368ead1461010e5780636948239f1461012f5780637249fbb6146101425780639bd6283014610155575b5f5ffd5b6100c86100c3366004610f61565b6102ad565b005b6100f17f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b0390911681526020015b60405180910390f35b61012161011c366004610fee565b6103c4565b604051908152602001610105565b61012161013d366004611018565b6103f6565b6100c8610150366004611039565b61043b565b6100c8610163366004611050565b61065c565b6100f17f000000000000000000000000000000000000000000000000000000000000000081565b61021161019d366004610fee565b5f9182526001602081815260408085206001600160a01b039490941685529290529120908101548154600290920154600160c01b820460ff908116946001600160801b038086169581861695600160801b91829004909216949390820467ffffffffffffffff1692600160c81b9092041690565b6040516101059796959493929190611108565b6100c8610232366004611162565b61088c565b61012161024536600461119a565b610a7f565b6100c86102583660046111cd565b610ae3565b61029d61026b3660046111ff565b5f9283526002602090815260408085206001600160a01b03948516865282528085209290931684525290205460ff1690565b6040519015158152602001610105565b6102b5610b3a565b5f6102c08b896103f6565b90508085146102f15760405163612b60cd60e11b815260048101829052602481018690526044015b60405180910390fd5b6102fd8b8b8b8b610b62565b6040516377aadf6360e11b81526001600160a01b038b81166004830152306024830152604482018b9052606482018990526084820188905260a4820187905260ff861660c483015260e4820185905261010482018490527f0000000000000000000000000000000000000000000000000000000000000000169063ef55bec690610124015f604051808303815f87803b158015610398575f5ffd5b505af11580156103aa573d5f5f3e3d5ffd5b50505050506103b860015f55565b50505050505050505050565b5f8281526001602090815260408083206001600160a01b03851684529091529020546001600160801b03165b92915050565b5f828260405160200161041d92919091825267ffffffffffffffff16602082015260400190565b60405160208183030381529060405280519060200120905092915050565b610443610b3a565b5f8181526001602081815260408084203385529091528220908101549091600160c01b90910460ff16906002826003811115610481576104816110f4565b03610515576001830154600160c81b900460ff16156104b35760405163542f378d60e11b815260040160405180910390fd5b600183015483546104d0916001600160801b039081169116611243565b6001600160801b03169050805f036104fb5760405163f76aef6560e01b815260040160405180910390fd5b60018301805460ff60c81b1916600160c81b1790556105e2565b6001826003811115610529576105296110f4565b03610597576001830154600160801b900467ffffffffffffffff16428110610570576040516358ea338160e01b815267ffffffffffffffff821660048201526024016102e8565b5050815460018301805460ff60c01b1916600360c01b1790556001600160801b03166105e2565b60038260038111156105ab576105ab6110f4565b036105c95760405163542f378d60e11b815260040160405180910390fd5b604051636af784dd60e11b815260040160405180910390fd5b6106166001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000163383610d67565b604051818152339085907fdd01b4689a2372afbf170143867234d409c5b6dd10f83918afd6e200f00f40589060200160405180910390a350505061065960015f55565b50565b610664610b3a565b5f8681526001602090815260408083206001600160a01b0389168452909152902060026001820154600160c01b900460ff1660038111156106a7576106a76110f4565b146106c55760405163ba329a9b60e01b815260040160405180910390fd5b5f8781526002602090815260408083206001600160a01b03808b1685529083528184209089168452918290529091205460ff161561072157604051632058b6db60e01b81526001600160a01b03871660048201526024016102e8565b61073b848484600201546107368c8b8b610a7f565b610dc6565b610758576040516309bde33960e01b815260040160405180910390fd5b815460018301546001600160801b03600160801b9092048216911661077d8282611262565b8711156107b1578661078f8383611262565b60405163af321b8160e01b8152600481019290925260248201526044016102e8565b6001600160a01b0388165f908152602084905260409020805460ff191660011790556107dd8783611275565b84546001600160801b03918216600160801b0291161784556108296001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000168989610d67565b876001600160a01b0316896001600160a01b03168b7f96a0bda4b1c283cf8feeb70ec1fc51c1f830f0548dc9f740b8d885079be891068a60405161086f91815260200190565b60405180910390a45050505061088460015f55565b505050505050565b336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146108d75760405163f604cfe760e01b81523360048201526024016102e8565b816108f55760405163b263ae7360e01b815260040160405180910390fd5b5f8481526001602081815260408084206001600160a01b03881685529091528220908101549091600160c01b90910460ff169081600381111561093a5761093a6110f4565b0361095857604051636af784dd60e11b815260040160405180910390fd5b600281600381111561096c5761096c6110f4565b036109895760405162560ff960e81b815260040160405180910390fd5b600381600381111561099d5761099d6110f4565b036109bb5760405163542f378d60e11b815260040160405180910390fd5b81546001600160801b0316808411156109f157604051630256808d60e31b815260048101859052602481018290526044016102e8565b6001830180546001600160801b03861678ff0000000000000000ffffffffffffffffffffffffffffffff1990911617600160c11b1790556002830185905560408051868152602081018690526001600160a01b0388169189917ff29a44a59b40ec039026b158f207ffabe42f2b735da044731f6dea7b5074c40f91015b60405180910390a350505050505050565b60408051602081018590526001600160a01b03841691810191909152606081018290525f9060800160408051601f19818403018152828252805160209182012090830152016040516020818303038152906040528051906020012090509392505050565b610aeb610b3a565b610af783338484610b62565b610b2c6001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016333085610ddd565b610b3560015f55565b505050565b60025f5403610b5c57604051633ee5aeb560e01b815260040160405180910390fd5b60025f55565b815f03610b8257604051631f2a200560e01b815260040160405180910390fd5b5f8481526001602081815260408084206001600160a01b038816855290915290912090810154600160c01b900460ff166002816003811115610bc657610bc66110f4565b03610be35760405162560ff960e81b815260040160405180910390fd5b6003816003811115610bf757610bf76110f4565b03610c155760405163542f378d60e11b815260040160405180910390fd5b5f816003811115610c2857610c286110f4565b03610c475760018201805460ff60c01b1916600160c01b179055610ca2565b600182015467ffffffffffffffff600160801b90910481169084161015610ca2576001820154604051637fce127560e01b8152600160801b90910467ffffffffffffffff9081166004830152841660248201526044016102e8565b60018201805467ffffffffffffffff60801b1916600160801b67ffffffffffffffff86160217905581545f90610ceb90610ce69087906001600160801b0316611275565b610e1c565b83546fffffffffffffffffffffffffffffffff19166001600160801b038216908117855560408051888152602081019290925267ffffffffffffffff8716908201529091506001600160a01b0387169088907f66e4e0894b173fd5c85f74a04baa28d0b483fda6c47466a43ea92ce739eda28990606001610a6e565b6040516001600160a01b03838116602483015260448201839052610b3591859182169063a9059cbb906064015b604051602081830303815290604052915060e01b6020820180516001600160e01b038381831617835250505050610e53565b5f82610dd3868685610ebf565b1495945050505050565b6040516001600160a01b038481166024830152838116604483015260648201839052610e169186918216906323b872dd90608401610d94565b50505050565b5f6001600160801b03821115610e4f576040516306dfcc6560e41b815260806004820152602481018390526044016102e8565b5090565b5f5f60205f8451602086015f885af180610e72576040513d5f823e3d81fd5b50505f513d91508115610e89578060011415610e96565b6001600160a01b0384163b155b15610e1657604051635274afe760e01b81526001600160a01b03851660048201526024016102e8565b5f81815b84811015610ef757610eed82878784818110610ee157610ee1611288565b90506020020135610f00565b9150600101610ec3565b50949350505050565b5f818310610f1a575f828152602084905260409020610f28565b5f8381526020839052604090205b9392505050565b80356001600160a01b0381168114610f45575f5ffd5b919050565b803567ffffffffffffffff81168114610f45575f5ffd5b5f5f5f5f5f5f5f5f5f5f6101408b8d031215610f7b575f5ffd5b8a359950610f8b60208c01610f2f565b985060408b01359750610fa060608c01610f4a565b965060808b0135955060a08b0135945060c08b0135935060e08b013560ff81168114610fca575f5ffd5b999c989b509699959894979396509194610100810135936101209091013592509050565b5f5f60408385031215610fff575f5ffd5b8235915061100f60208401610f2f565b90509250929050565b5f5f60408385031215611029575f5ffd5b8235915061100f60208401610f4a565b5f60208284031215611049575f5ffd5b5035919050565b5f5f5f5f5f5f60a08789031215611065575f5ffd5b8635955061107560208801610f2f565b945061108360408801610f2f565b935060608701359250608087013567ffffffffffffffff8111156110a5575f5ffd5b8701601f810189136110b5575f5ffd5b803567ffffffffffffffff8111156110cb575f5ffd5b8960208260051b84010111156110df575f5ffd5b60208201935080925050509295509295509295565b634e487b7160e01b5f52602160045260245ffd5b60e081016004891061112857634e487b7160e01b5f52602160045260245ffd5b978152602081019690965260408601949094526060850192909252608084015267ffffffffffffffff1660a0830152151560c09091015290565b5f5f5f5f60808587031215611175575f5ffd5b8435935061118560208601610f2f565b93969395505050506040820135916060013590565b5f5f5f606084860312156111ac575f5ffd5b833592506111bc60208501610f2f565b929592945050506040919091013590565b5f5f5f606084860312156111df575f5ffd5b83359250602084013591506111f660408501610f4a565b90509250925092565b5f5f5f60608486031215611211575f5ffd5b8335925061122160208501610f2f565b91506111f660408501610f2f565b634e487b7160e01b5f52601160045260245ffd5b6001600160801b0382811682821603908111156103f0576103f061122f565b818103818111156103f0576103f061122f565b808201808211156103f0576103f061122f565b634e487b7160e01b5f52603260045260245ffdfea2646970667358221220ab219533f85ce1599ea1401794e169eaf03516ab747389ae54290c8407c0c4b364736f6c634300081c0033",
}

// BountyEscrowABI is the input ABI used to generate the binding from.
// Deprecated: Use BountyEscrowMetaData.ABI instead.
var BountyEscrowABI = BountyEscrowMetaData.ABI

// BountyEscrowBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use BountyEscrowMetaData.Bin instead.
var BountyEscrowBin = BountyEscrowMetaData.Bin

// DeployBountyEscrow deploys a new Ethereum contract, binding an instance of BountyEscrow to it.
func DeployBountyEscrow(auth *bind.TransactOpts, backend bind.ContractBackend, usdc_ common.Address, settler_ common.Address) (common.Address, *types.Transaction, *BountyEscrow, error) {
	parsed, err := BountyEscrowMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(BountyEscrowBin), backend, usdc_, settler_)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &BountyEscrow{BountyEscrowCaller: BountyEscrowCaller{contract: contract}, BountyEscrowTransactor: BountyEscrowTransactor{contract: contract}, BountyEscrowFilterer: BountyEscrowFilterer{contract: contract}}, nil
}

// BountyEscrow is an auto generated Go binding around an Ethereum contract.
type BountyEscrow struct {
	BountyEscrowCaller     // Read-only binding to the contract
	BountyEscrowTransactor // Write-only binding to the contract
	BountyEscrowFilterer   // Log filterer for contract events
}

// BountyEscrowCaller is an auto generated read-only Go binding around an Ethereum contract.
type BountyEscrowCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// BountyEscrowTransactor is an auto generated write-only Go binding around an Ethereum contract.
type BountyEscrowTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// BountyEscrowFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type BountyEscrowFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// BountyEscrowSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type BountyEscrowSession struct {
	Contract     *BountyEscrow     // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// BountyEscrowCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type BountyEscrowCallerSession struct {
	Contract *BountyEscrowCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts       // Call options to use throughout this session
}

// BountyEscrowTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type BountyEscrowTransactorSession struct {
	Contract     *BountyEscrowTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts       // Transaction auth options to use throughout this session
}

// BountyEscrowRaw is an auto generated low-level Go binding around an Ethereum contract.
type BountyEscrowRaw struct {
	Contract *BountyEscrow // Generic contract binding to access the raw methods on
}

// BountyEscrowCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type BountyEscrowCallerRaw struct {
	Contract *BountyEscrowCaller // Generic read-only contract binding to access the raw methods on
}

// BountyEscrowTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type BountyEscrowTransactorRaw struct {
	Contract *BountyEscrowTransactor // Generic write-only contract binding to access the raw methods on
}

// NewBountyEscrow creates a new instance of BountyEscrow, bound to a specific deployed contract.
func NewBountyEscrow(address common.Address, backend bind.ContractBackend) (*BountyEscrow, error) {
	contract, err := bindBountyEscrow(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &BountyEscrow{BountyEscrowCaller: BountyEscrowCaller{contract: contract}, BountyEscrowTransactor: BountyEscrowTransactor{contract: contract}, BountyEscrowFilterer: BountyEscrowFilterer{contract: contract}}, nil
}

// NewBountyEscrowCaller creates a new read-only instance of BountyEscrow, bound to a specific deployed contract.
func NewBountyEscrowCaller(address common.Address, caller bind.ContractCaller) (*BountyEscrowCaller, error) {
	contract, err := bindBountyEscrow(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &BountyEscrowCaller{contract: contract}, nil
}

// NewBountyEscrowTransactor creates a new write-only instance of BountyEscrow, bound to a specific deployed contract.
func NewBountyEscrowTransactor(address common.Address, transactor bind.ContractTransactor) (*BountyEscrowTransactor, error) {
	contract, err := bindBountyEscrow(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &BountyEscrowTransactor{contract: contract}, nil
}

// NewBountyEscrowFilterer creates a new log filterer instance of BountyEscrow, bound to a specific deployed contract.
func NewBountyEscrowFilterer(address common.Address, filterer bind.ContractFilterer) (*BountyEscrowFilterer, error) {
	contract, err := bindBountyEscrow(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &BountyEscrowFilterer{contract: contract}, nil
}

// bindBountyEscrow binds a generic wrapper to an already deployed contract.
func bindBountyEscrow(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := BountyEscrowMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_BountyEscrow *BountyEscrowRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _BountyEscrow.Contract.BountyEscrowCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_BountyEscrow *BountyEscrowRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _BountyEscrow.Contract.BountyEscrowTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_BountyEscrow *BountyEscrowRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _BountyEscrow.Contract.BountyEscrowTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_BountyEscrow *BountyEscrowCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _BountyEscrow.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_BountyEscrow *BountyEscrowTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _BountyEscrow.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_BountyEscrow *BountyEscrowTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _BountyEscrow.Contract.contract.Transact(opts, method, params...)
}

// AuthorizationNonce is a free data retrieval call binding the contract method 0x6948239f.
//
// Solidity: function authorizationNonce(bytes32 jobKey, uint64 refundAfter) pure returns(bytes32)
func (_BountyEscrow *BountyEscrowCaller) AuthorizationNonce(opts *bind.CallOpts, jobKey [32]byte, refundAfter uint64) ([32]byte, error) {
	var out []interface{}
	err := _BountyEscrow.contract.Call(opts, &out, "authorizationNonce", jobKey, refundAfter)

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// AuthorizationNonce is a free data retrieval call binding the contract method 0x6948239f.
//
// Solidity: function authorizationNonce(bytes32 jobKey, uint64 refundAfter) pure returns(bytes32)
func (_BountyEscrow *BountyEscrowSession) AuthorizationNonce(jobKey [32]byte, refundAfter uint64) ([32]byte, error) {
	return _BountyEscrow.Contract.AuthorizationNonce(&_BountyEscrow.CallOpts, jobKey, refundAfter)
}

// AuthorizationNonce is a free data retrieval call binding the contract method 0x6948239f.
//
// Solidity: function authorizationNonce(bytes32 jobKey, uint64 refundAfter) pure returns(bytes32)
func (_BountyEscrow *BountyEscrowCallerSession) AuthorizationNonce(jobKey [32]byte, refundAfter uint64) ([32]byte, error) {
	return _BountyEscrow.Contract.AuthorizationNonce(&_BountyEscrow.CallOpts, jobKey, refundAfter)
}

// FundedOf is a free data retrieval call binding the contract method 0x44368ead.
//
// Solidity: function fundedOf(bytes32 jobKey, address sponsor) view returns(uint256)
func (_BountyEscrow *BountyEscrowCaller) FundedOf(opts *bind.CallOpts, jobKey [32]byte, sponsor common.Address) (*big.Int, error) {
	var out []interface{}
	err := _BountyEscrow.contract.Call(opts, &out, "fundedOf", jobKey, sponsor)

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// FundedOf is a free data retrieval call binding the contract method 0x44368ead.
//
// Solidity: function fundedOf(bytes32 jobKey, address sponsor) view returns(uint256)
func (_BountyEscrow *BountyEscrowSession) FundedOf(jobKey [32]byte, sponsor common.Address) (*big.Int, error) {
	return _BountyEscrow.Contract.FundedOf(&_BountyEscrow.CallOpts, jobKey, sponsor)
}

// FundedOf is a free data retrieval call binding the contract method 0x44368ead.
//
// Solidity: function fundedOf(bytes32 jobKey, address sponsor) view returns(uint256)
func (_BountyEscrow *BountyEscrowCallerSession) FundedOf(jobKey [32]byte, sponsor common.Address) (*big.Int, error) {
	return _BountyEscrow.Contract.FundedOf(&_BountyEscrow.CallOpts, jobKey, sponsor)
}

// IsClaimed is a free data retrieval call binding the contract method 0xfcbc9bc8.
//
// Solidity: function isClaimed(bytes32 jobKey, address sponsor, address recipient) view returns(bool)
func (_BountyEscrow *BountyEscrowCaller) IsClaimed(opts *bind.CallOpts, jobKey [32]byte, sponsor common.Address, recipient common.Address) (bool, error) {
	var out []interface{}
	err := _BountyEscrow.contract.Call(opts, &out, "isClaimed", jobKey, sponsor, recipient)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// IsClaimed is a free data retrieval call binding the contract method 0xfcbc9bc8.
//
// Solidity: function isClaimed(bytes32 jobKey, address sponsor, address recipient) view returns(bool)
func (_BountyEscrow *BountyEscrowSession) IsClaimed(jobKey [32]byte, sponsor common.Address, recipient common.Address) (bool, error) {
	return _BountyEscrow.Contract.IsClaimed(&_BountyEscrow.CallOpts, jobKey, sponsor, recipient)
}

// IsClaimed is a free data retrieval call binding the contract method 0xfcbc9bc8.
//
// Solidity: function isClaimed(bytes32 jobKey, address sponsor, address recipient) view returns(bool)
func (_BountyEscrow *BountyEscrowCallerSession) IsClaimed(jobKey [32]byte, sponsor common.Address, recipient common.Address) (bool, error) {
	return _BountyEscrow.Contract.IsClaimed(&_BountyEscrow.CallOpts, jobKey, sponsor, recipient)
}

// PayoutLeaf is a free data retrieval call binding the contract method 0xe06c9ba0.
//
// Solidity: function payoutLeaf(bytes32 jobKey, address recipient, uint256 amount) pure returns(bytes32)
func (_BountyEscrow *BountyEscrowCaller) PayoutLeaf(opts *bind.CallOpts, jobKey [32]byte, recipient common.Address, amount *big.Int) ([32]byte, error) {
	var out []interface{}
	err := _BountyEscrow.contract.Call(opts, &out, "payoutLeaf", jobKey, recipient, amount)

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// PayoutLeaf is a free data retrieval call binding the contract method 0xe06c9ba0.
//
// Solidity: function payoutLeaf(bytes32 jobKey, address recipient, uint256 amount) pure returns(bytes32)
func (_BountyEscrow *BountyEscrowSession) PayoutLeaf(jobKey [32]byte, recipient common.Address, amount *big.Int) ([32]byte, error) {
	return _BountyEscrow.Contract.PayoutLeaf(&_BountyEscrow.CallOpts, jobKey, recipient, amount)
}

// PayoutLeaf is a free data retrieval call binding the contract method 0xe06c9ba0.
//
// Solidity: function payoutLeaf(bytes32 jobKey, address recipient, uint256 amount) pure returns(bytes32)
func (_BountyEscrow *BountyEscrowCallerSession) PayoutLeaf(jobKey [32]byte, recipient common.Address, amount *big.Int) ([32]byte, error) {
	return _BountyEscrow.Contract.PayoutLeaf(&_BountyEscrow.CallOpts, jobKey, recipient, amount)
}

// Settler is a free data retrieval call binding the contract method 0xab221a76.
//
// Solidity: function settler() view returns(address)
func (_BountyEscrow *BountyEscrowCaller) Settler(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _BountyEscrow.contract.Call(opts, &out, "settler")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Settler is a free data retrieval call binding the contract method 0xab221a76.
//
// Solidity: function settler() view returns(address)
func (_BountyEscrow *BountyEscrowSession) Settler() (common.Address, error) {
	return _BountyEscrow.Contract.Settler(&_BountyEscrow.CallOpts)
}

// Settler is a free data retrieval call binding the contract method 0xab221a76.
//
// Solidity: function settler() view returns(address)
func (_BountyEscrow *BountyEscrowCallerSession) Settler() (common.Address, error) {
	return _BountyEscrow.Contract.Settler(&_BountyEscrow.CallOpts)
}

// SlotOf is a free data retrieval call binding the contract method 0xb50a09d4.
//
// Solidity: function slotOf(bytes32 jobKey, address sponsor) view returns(uint8 status, uint256 funded, uint256 total, uint256 claimed, bytes32 root, uint64 refundAfter, bool excessRefunded)
func (_BountyEscrow *BountyEscrowCaller) SlotOf(opts *bind.CallOpts, jobKey [32]byte, sponsor common.Address) (struct {
	Status         uint8
	Funded         *big.Int
	Total          *big.Int
	Claimed        *big.Int
	Root           [32]byte
	RefundAfter    uint64
	ExcessRefunded bool
}, error) {
	var out []interface{}
	err := _BountyEscrow.contract.Call(opts, &out, "slotOf", jobKey, sponsor)

	outstruct := new(struct {
		Status         uint8
		Funded         *big.Int
		Total          *big.Int
		Claimed        *big.Int
		Root           [32]byte
		RefundAfter    uint64
		ExcessRefunded bool
	})
	if err != nil {
		return *outstruct, err
	}

	outstruct.Status = *abi.ConvertType(out[0], new(uint8)).(*uint8)
	outstruct.Funded = *abi.ConvertType(out[1], new(*big.Int)).(**big.Int)
	outstruct.Total = *abi.ConvertType(out[2], new(*big.Int)).(**big.Int)
	outstruct.Claimed = *abi.ConvertType(out[3], new(*big.Int)).(**big.Int)
	outstruct.Root = *abi.ConvertType(out[4], new([32]byte)).(*[32]byte)
	outstruct.RefundAfter = *abi.ConvertType(out[5], new(uint64)).(*uint64)
	outstruct.ExcessRefunded = *abi.ConvertType(out[6], new(bool)).(*bool)

	return *outstruct, err

}

// SlotOf is a free data retrieval call binding the contract method 0xb50a09d4.
//
// Solidity: function slotOf(bytes32 jobKey, address sponsor) view returns(uint8 status, uint256 funded, uint256 total, uint256 claimed, bytes32 root, uint64 refundAfter, bool excessRefunded)
func (_BountyEscrow *BountyEscrowSession) SlotOf(jobKey [32]byte, sponsor common.Address) (struct {
	Status         uint8
	Funded         *big.Int
	Total          *big.Int
	Claimed        *big.Int
	Root           [32]byte
	RefundAfter    uint64
	ExcessRefunded bool
}, error) {
	return _BountyEscrow.Contract.SlotOf(&_BountyEscrow.CallOpts, jobKey, sponsor)
}

// SlotOf is a free data retrieval call binding the contract method 0xb50a09d4.
//
// Solidity: function slotOf(bytes32 jobKey, address sponsor) view returns(uint8 status, uint256 funded, uint256 total, uint256 claimed, bytes32 root, uint64 refundAfter, bool excessRefunded)
func (_BountyEscrow *BountyEscrowCallerSession) SlotOf(jobKey [32]byte, sponsor common.Address) (struct {
	Status         uint8
	Funded         *big.Int
	Total          *big.Int
	Claimed        *big.Int
	Root           [32]byte
	RefundAfter    uint64
	ExcessRefunded bool
}, error) {
	return _BountyEscrow.Contract.SlotOf(&_BountyEscrow.CallOpts, jobKey, sponsor)
}

// Usdc is a free data retrieval call binding the contract method 0x3e413bee.
//
// Solidity: function usdc() view returns(address)
func (_BountyEscrow *BountyEscrowCaller) Usdc(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _BountyEscrow.contract.Call(opts, &out, "usdc")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Usdc is a free data retrieval call binding the contract method 0x3e413bee.
//
// Solidity: function usdc() view returns(address)
func (_BountyEscrow *BountyEscrowSession) Usdc() (common.Address, error) {
	return _BountyEscrow.Contract.Usdc(&_BountyEscrow.CallOpts)
}

// Usdc is a free data retrieval call binding the contract method 0x3e413bee.
//
// Solidity: function usdc() view returns(address)
func (_BountyEscrow *BountyEscrowCallerSession) Usdc() (common.Address, error) {
	return _BountyEscrow.Contract.Usdc(&_BountyEscrow.CallOpts)
}

// Claim is a paid mutator transaction binding the contract method 0x9bd62830.
//
// Solidity: function claim(bytes32 jobKey, address sponsor, address recipient, uint256 amount, bytes32[] proof) returns()
func (_BountyEscrow *BountyEscrowTransactor) Claim(opts *bind.TransactOpts, jobKey [32]byte, sponsor common.Address, recipient common.Address, amount *big.Int, proof [][32]byte) (*types.Transaction, error) {
	return _BountyEscrow.contract.Transact(opts, "claim", jobKey, sponsor, recipient, amount, proof)
}

// Claim is a paid mutator transaction binding the contract method 0x9bd62830.
//
// Solidity: function claim(bytes32 jobKey, address sponsor, address recipient, uint256 amount, bytes32[] proof) returns()
func (_BountyEscrow *BountyEscrowSession) Claim(jobKey [32]byte, sponsor common.Address, recipient common.Address, amount *big.Int, proof [][32]byte) (*types.Transaction, error) {
	return _BountyEscrow.Contract.Claim(&_BountyEscrow.TransactOpts, jobKey, sponsor, recipient, amount, proof)
}

// Claim is a paid mutator transaction binding the contract method 0x9bd62830.
//
// Solidity: function claim(bytes32 jobKey, address sponsor, address recipient, uint256 amount, bytes32[] proof) returns()
func (_BountyEscrow *BountyEscrowTransactorSession) Claim(jobKey [32]byte, sponsor common.Address, recipient common.Address, amount *big.Int, proof [][32]byte) (*types.Transaction, error) {
	return _BountyEscrow.Contract.Claim(&_BountyEscrow.TransactOpts, jobKey, sponsor, recipient, amount, proof)
}

// Fund is a paid mutator transaction binding the contract method 0xed2ad6d4.
//
// Solidity: function fund(bytes32 jobKey, uint256 amount, uint64 refundAfter) returns()
func (_BountyEscrow *BountyEscrowTransactor) Fund(opts *bind.TransactOpts, jobKey [32]byte, amount *big.Int, refundAfter uint64) (*types.Transaction, error) {
	return _BountyEscrow.contract.Transact(opts, "fund", jobKey, amount, refundAfter)
}

// Fund is a paid mutator transaction binding the contract method 0xed2ad6d4.
//
// Solidity: function fund(bytes32 jobKey, uint256 amount, uint64 refundAfter) returns()
func (_BountyEscrow *BountyEscrowSession) Fund(jobKey [32]byte, amount *big.Int, refundAfter uint64) (*types.Transaction, error) {
	return _BountyEscrow.Contract.Fund(&_BountyEscrow.TransactOpts, jobKey, amount, refundAfter)
}

// Fund is a paid mutator transaction binding the contract method 0xed2ad6d4.
//
// Solidity: function fund(bytes32 jobKey, uint256 amount, uint64 refundAfter) returns()
func (_BountyEscrow *BountyEscrowTransactorSession) Fund(jobKey [32]byte, amount *big.Int, refundAfter uint64) (*types.Transaction, error) {
	return _BountyEscrow.Contract.Fund(&_BountyEscrow.TransactOpts, jobKey, amount, refundAfter)
}

// FundWithAuthorization is a paid mutator transaction binding the contract method 0x2e6477a6.
//
// Solidity: function fundWithAuthorization(bytes32 jobKey, address from, uint256 amount, uint64 refundAfter, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) returns()
func (_BountyEscrow *BountyEscrowTransactor) FundWithAuthorization(opts *bind.TransactOpts, jobKey [32]byte, from common.Address, amount *big.Int, refundAfter uint64, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, v uint8, r [32]byte, s [32]byte) (*types.Transaction, error) {
	return _BountyEscrow.contract.Transact(opts, "fundWithAuthorization", jobKey, from, amount, refundAfter, validAfter, validBefore, nonce, v, r, s)
}

// FundWithAuthorization is a paid mutator transaction binding the contract method 0x2e6477a6.
//
// Solidity: function fundWithAuthorization(bytes32 jobKey, address from, uint256 amount, uint64 refundAfter, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) returns()
func (_BountyEscrow *BountyEscrowSession) FundWithAuthorization(jobKey [32]byte, from common.Address, amount *big.Int, refundAfter uint64, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, v uint8, r [32]byte, s [32]byte) (*types.Transaction, error) {
	return _BountyEscrow.Contract.FundWithAuthorization(&_BountyEscrow.TransactOpts, jobKey, from, amount, refundAfter, validAfter, validBefore, nonce, v, r, s)
}

// FundWithAuthorization is a paid mutator transaction binding the contract method 0x2e6477a6.
//
// Solidity: function fundWithAuthorization(bytes32 jobKey, address from, uint256 amount, uint64 refundAfter, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) returns()
func (_BountyEscrow *BountyEscrowTransactorSession) FundWithAuthorization(jobKey [32]byte, from common.Address, amount *big.Int, refundAfter uint64, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, v uint8, r [32]byte, s [32]byte) (*types.Transaction, error) {
	return _BountyEscrow.Contract.FundWithAuthorization(&_BountyEscrow.TransactOpts, jobKey, from, amount, refundAfter, validAfter, validBefore, nonce, v, r, s)
}

// Refund is a paid mutator transaction binding the contract method 0x7249fbb6.
//
// Solidity: function refund(bytes32 jobKey) returns()
func (_BountyEscrow *BountyEscrowTransactor) Refund(opts *bind.TransactOpts, jobKey [32]byte) (*types.Transaction, error) {
	return _BountyEscrow.contract.Transact(opts, "refund", jobKey)
}

// Refund is a paid mutator transaction binding the contract method 0x7249fbb6.
//
// Solidity: function refund(bytes32 jobKey) returns()
func (_BountyEscrow *BountyEscrowSession) Refund(jobKey [32]byte) (*types.Transaction, error) {
	return _BountyEscrow.Contract.Refund(&_BountyEscrow.TransactOpts, jobKey)
}

// Refund is a paid mutator transaction binding the contract method 0x7249fbb6.
//
// Solidity: function refund(bytes32 jobKey) returns()
func (_BountyEscrow *BountyEscrowTransactorSession) Refund(jobKey [32]byte) (*types.Transaction, error) {
	return _BountyEscrow.Contract.Refund(&_BountyEscrow.TransactOpts, jobKey)
}

// Settle is a paid mutator transaction binding the contract method 0xdfc118f6.
//
// Solidity: function settle(bytes32 jobKey, address sponsor, bytes32 root, uint256 total) returns()
func (_BountyEscrow *BountyEscrowTransactor) Settle(opts *bind.TransactOpts, jobKey [32]byte, sponsor common.Address, root [32]byte, total *big.Int) (*types.Transaction, error) {
	return _BountyEscrow.contract.Transact(opts, "settle", jobKey, sponsor, root, total)
}

// Settle is a paid mutator transaction binding the contract method 0xdfc118f6.
//
// Solidity: function settle(bytes32 jobKey, address sponsor, bytes32 root, uint256 total) returns()
func (_BountyEscrow *BountyEscrowSession) Settle(jobKey [32]byte, sponsor common.Address, root [32]byte, total *big.Int) (*types.Transaction, error) {
	return _BountyEscrow.Contract.Settle(&_BountyEscrow.TransactOpts, jobKey, sponsor, root, total)
}

// Settle is a paid mutator transaction binding the contract method 0xdfc118f6.
//
// Solidity: function settle(bytes32 jobKey, address sponsor, bytes32 root, uint256 total) returns()
func (_BountyEscrow *BountyEscrowTransactorSession) Settle(jobKey [32]byte, sponsor common.Address, root [32]byte, total *big.Int) (*types.Transaction, error) {
	return _BountyEscrow.Contract.Settle(&_BountyEscrow.TransactOpts, jobKey, sponsor, root, total)
}

// BountyEscrowBountyFundedIterator is returned from FilterBountyFunded and is used to iterate over the raw logs and unpacked data for BountyFunded events raised by the BountyEscrow contract.
type BountyEscrowBountyFundedIterator struct {
	Event *BountyEscrowBountyFunded // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *BountyEscrowBountyFundedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(BountyEscrowBountyFunded)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(BountyEscrowBountyFunded)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *BountyEscrowBountyFundedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *BountyEscrowBountyFundedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// BountyEscrowBountyFunded represents a BountyFunded event raised by the BountyEscrow contract.
type BountyEscrowBountyFunded struct {
	JobKey      [32]byte
	Sponsor     common.Address
	Amount      *big.Int
	Total       *big.Int
	RefundAfter uint64
	Raw         types.Log // Blockchain specific contextual infos
}

// FilterBountyFunded is a free log retrieval operation binding the contract event 0x66e4e0894b173fd5c85f74a04baa28d0b483fda6c47466a43ea92ce739eda289.
//
// Solidity: event BountyFunded(bytes32 indexed jobKey, address indexed sponsor, uint256 amount, uint256 total, uint64 refundAfter)
func (_BountyEscrow *BountyEscrowFilterer) FilterBountyFunded(opts *bind.FilterOpts, jobKey [][32]byte, sponsor []common.Address) (*BountyEscrowBountyFundedIterator, error) {

	var jobKeyRule []interface{}
	for _, jobKeyItem := range jobKey {
		jobKeyRule = append(jobKeyRule, jobKeyItem)
	}
	var sponsorRule []interface{}
	for _, sponsorItem := range sponsor {
		sponsorRule = append(sponsorRule, sponsorItem)
	}

	logs, sub, err := _BountyEscrow.contract.FilterLogs(opts, "BountyFunded", jobKeyRule, sponsorRule)
	if err != nil {
		return nil, err
	}
	return &BountyEscrowBountyFundedIterator{contract: _BountyEscrow.contract, event: "BountyFunded", logs: logs, sub: sub}, nil
}

// WatchBountyFunded is a free log subscription operation binding the contract event 0x66e4e0894b173fd5c85f74a04baa28d0b483fda6c47466a43ea92ce739eda289.
//
// Solidity: event BountyFunded(bytes32 indexed jobKey, address indexed sponsor, uint256 amount, uint256 total, uint64 refundAfter)
func (_BountyEscrow *BountyEscrowFilterer) WatchBountyFunded(opts *bind.WatchOpts, sink chan<- *BountyEscrowBountyFunded, jobKey [][32]byte, sponsor []common.Address) (event.Subscription, error) {

	var jobKeyRule []interface{}
	for _, jobKeyItem := range jobKey {
		jobKeyRule = append(jobKeyRule, jobKeyItem)
	}
	var sponsorRule []interface{}
	for _, sponsorItem := range sponsor {
		sponsorRule = append(sponsorRule, sponsorItem)
	}

	logs, sub, err := _BountyEscrow.contract.WatchLogs(opts, "BountyFunded", jobKeyRule, sponsorRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(BountyEscrowBountyFunded)
				if err := _BountyEscrow.contract.UnpackLog(event, "BountyFunded", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseBountyFunded is a log parse operation binding the contract event 0x66e4e0894b173fd5c85f74a04baa28d0b483fda6c47466a43ea92ce739eda289.
//
// Solidity: event BountyFunded(bytes32 indexed jobKey, address indexed sponsor, uint256 amount, uint256 total, uint64 refundAfter)
func (_BountyEscrow *BountyEscrowFilterer) ParseBountyFunded(log types.Log) (*BountyEscrowBountyFunded, error) {
	event := new(BountyEscrowBountyFunded)
	if err := _BountyEscrow.contract.UnpackLog(event, "BountyFunded", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// BountyEscrowBountyRefundedIterator is returned from FilterBountyRefunded and is used to iterate over the raw logs and unpacked data for BountyRefunded events raised by the BountyEscrow contract.
type BountyEscrowBountyRefundedIterator struct {
	Event *BountyEscrowBountyRefunded // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *BountyEscrowBountyRefundedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(BountyEscrowBountyRefunded)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(BountyEscrowBountyRefunded)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *BountyEscrowBountyRefundedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *BountyEscrowBountyRefundedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// BountyEscrowBountyRefunded represents a BountyRefunded event raised by the BountyEscrow contract.
type BountyEscrowBountyRefunded struct {
	JobKey  [32]byte
	Sponsor common.Address
	Amount  *big.Int
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterBountyRefunded is a free log retrieval operation binding the contract event 0xdd01b4689a2372afbf170143867234d409c5b6dd10f83918afd6e200f00f4058.
//
// Solidity: event BountyRefunded(bytes32 indexed jobKey, address indexed sponsor, uint256 amount)
func (_BountyEscrow *BountyEscrowFilterer) FilterBountyRefunded(opts *bind.FilterOpts, jobKey [][32]byte, sponsor []common.Address) (*BountyEscrowBountyRefundedIterator, error) {

	var jobKeyRule []interface{}
	for _, jobKeyItem := range jobKey {
		jobKeyRule = append(jobKeyRule, jobKeyItem)
	}
	var sponsorRule []interface{}
	for _, sponsorItem := range sponsor {
		sponsorRule = append(sponsorRule, sponsorItem)
	}

	logs, sub, err := _BountyEscrow.contract.FilterLogs(opts, "BountyRefunded", jobKeyRule, sponsorRule)
	if err != nil {
		return nil, err
	}
	return &BountyEscrowBountyRefundedIterator{contract: _BountyEscrow.contract, event: "BountyRefunded", logs: logs, sub: sub}, nil
}

// WatchBountyRefunded is a free log subscription operation binding the contract event 0xdd01b4689a2372afbf170143867234d409c5b6dd10f83918afd6e200f00f4058.
//
// Solidity: event BountyRefunded(bytes32 indexed jobKey, address indexed sponsor, uint256 amount)
func (_BountyEscrow *BountyEscrowFilterer) WatchBountyRefunded(opts *bind.WatchOpts, sink chan<- *BountyEscrowBountyRefunded, jobKey [][32]byte, sponsor []common.Address) (event.Subscription, error) {

	var jobKeyRule []interface{}
	for _, jobKeyItem := range jobKey {
		jobKeyRule = append(jobKeyRule, jobKeyItem)
	}
	var sponsorRule []interface{}
	for _, sponsorItem := range sponsor {
		sponsorRule = append(sponsorRule, sponsorItem)
	}

	logs, sub, err := _BountyEscrow.contract.WatchLogs(opts, "BountyRefunded", jobKeyRule, sponsorRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(BountyEscrowBountyRefunded)
				if err := _BountyEscrow.contract.UnpackLog(event, "BountyRefunded", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseBountyRefunded is a log parse operation binding the contract event 0xdd01b4689a2372afbf170143867234d409c5b6dd10f83918afd6e200f00f4058.
//
// Solidity: event BountyRefunded(bytes32 indexed jobKey, address indexed sponsor, uint256 amount)
func (_BountyEscrow *BountyEscrowFilterer) ParseBountyRefunded(log types.Log) (*BountyEscrowBountyRefunded, error) {
	event := new(BountyEscrowBountyRefunded)
	if err := _BountyEscrow.contract.UnpackLog(event, "BountyRefunded", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// BountyEscrowBountySettledIterator is returned from FilterBountySettled and is used to iterate over the raw logs and unpacked data for BountySettled events raised by the BountyEscrow contract.
type BountyEscrowBountySettledIterator struct {
	Event *BountyEscrowBountySettled // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *BountyEscrowBountySettledIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(BountyEscrowBountySettled)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(BountyEscrowBountySettled)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *BountyEscrowBountySettledIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *BountyEscrowBountySettledIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// BountyEscrowBountySettled represents a BountySettled event raised by the BountyEscrow contract.
type BountyEscrowBountySettled struct {
	JobKey  [32]byte
	Sponsor common.Address
	Root    [32]byte
	Total   *big.Int
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterBountySettled is a free log retrieval operation binding the contract event 0xf29a44a59b40ec039026b158f207ffabe42f2b735da044731f6dea7b5074c40f.
//
// Solidity: event BountySettled(bytes32 indexed jobKey, address indexed sponsor, bytes32 root, uint256 total)
func (_BountyEscrow *BountyEscrowFilterer) FilterBountySettled(opts *bind.FilterOpts, jobKey [][32]byte, sponsor []common.Address) (*BountyEscrowBountySettledIterator, error) {

	var jobKeyRule []interface{}
	for _, jobKeyItem := range jobKey {
		jobKeyRule = append(jobKeyRule, jobKeyItem)
	}
	var sponsorRule []interface{}
	for _, sponsorItem := range sponsor {
		sponsorRule = append(sponsorRule, sponsorItem)
	}

	logs, sub, err := _BountyEscrow.contract.FilterLogs(opts, "BountySettled", jobKeyRule, sponsorRule)
	if err != nil {
		return nil, err
	}
	return &BountyEscrowBountySettledIterator{contract: _BountyEscrow.contract, event: "BountySettled", logs: logs, sub: sub}, nil
}

// WatchBountySettled is a free log subscription operation binding the contract event 0xf29a44a59b40ec039026b158f207ffabe42f2b735da044731f6dea7b5074c40f.
//
// Solidity: event BountySettled(bytes32 indexed jobKey, address indexed sponsor, bytes32 root, uint256 total)
func (_BountyEscrow *BountyEscrowFilterer) WatchBountySettled(opts *bind.WatchOpts, sink chan<- *BountyEscrowBountySettled, jobKey [][32]byte, sponsor []common.Address) (event.Subscription, error) {

	var jobKeyRule []interface{}
	for _, jobKeyItem := range jobKey {
		jobKeyRule = append(jobKeyRule, jobKeyItem)
	}
	var sponsorRule []interface{}
	for _, sponsorItem := range sponsor {
		sponsorRule = append(sponsorRule, sponsorItem)
	}

	logs, sub, err := _BountyEscrow.contract.WatchLogs(opts, "BountySettled", jobKeyRule, sponsorRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(BountyEscrowBountySettled)
				if err := _BountyEscrow.contract.UnpackLog(event, "BountySettled", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseBountySettled is a log parse operation binding the contract event 0xf29a44a59b40ec039026b158f207ffabe42f2b735da044731f6dea7b5074c40f.
//
// Solidity: event BountySettled(bytes32 indexed jobKey, address indexed sponsor, bytes32 root, uint256 total)
func (_BountyEscrow *BountyEscrowFilterer) ParseBountySettled(log types.Log) (*BountyEscrowBountySettled, error) {
	event := new(BountyEscrowBountySettled)
	if err := _BountyEscrow.contract.UnpackLog(event, "BountySettled", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// BountyEscrowPayoutClaimedIterator is returned from FilterPayoutClaimed and is used to iterate over the raw logs and unpacked data for PayoutClaimed events raised by the BountyEscrow contract.
type BountyEscrowPayoutClaimedIterator struct {
	Event *BountyEscrowPayoutClaimed // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *BountyEscrowPayoutClaimedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(BountyEscrowPayoutClaimed)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(BountyEscrowPayoutClaimed)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *BountyEscrowPayoutClaimedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *BountyEscrowPayoutClaimedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// BountyEscrowPayoutClaimed represents a PayoutClaimed event raised by the BountyEscrow contract.
type BountyEscrowPayoutClaimed struct {
	JobKey    [32]byte
	Sponsor   common.Address
	Recipient common.Address
	Amount    *big.Int
	Raw       types.Log // Blockchain specific contextual infos
}

// FilterPayoutClaimed is a free log retrieval operation binding the contract event 0x96a0bda4b1c283cf8feeb70ec1fc51c1f830f0548dc9f740b8d885079be89106.
//
// Solidity: event PayoutClaimed(bytes32 indexed jobKey, address indexed sponsor, address indexed recipient, uint256 amount)
func (_BountyEscrow *BountyEscrowFilterer) FilterPayoutClaimed(opts *bind.FilterOpts, jobKey [][32]byte, sponsor []common.Address, recipient []common.Address) (*BountyEscrowPayoutClaimedIterator, error) {

	var jobKeyRule []interface{}
	for _, jobKeyItem := range jobKey {
		jobKeyRule = append(jobKeyRule, jobKeyItem)
	}
	var sponsorRule []interface{}
	for _, sponsorItem := range sponsor {
		sponsorRule = append(sponsorRule, sponsorItem)
	}
	var recipientRule []interface{}
	for _, recipientItem := range recipient {
		recipientRule = append(recipientRule, recipientItem)
	}

	logs, sub, err := _BountyEscrow.contract.FilterLogs(opts, "PayoutClaimed", jobKeyRule, sponsorRule, recipientRule)
	if err != nil {
		return nil, err
	}
	return &BountyEscrowPayoutClaimedIterator{contract: _BountyEscrow.contract, event: "PayoutClaimed", logs: logs, sub: sub}, nil
}

// WatchPayoutClaimed is a free log subscription operation binding the contract event 0x96a0bda4b1c283cf8feeb70ec1fc51c1f830f0548dc9f740b8d885079be89106.
//
// Solidity: event PayoutClaimed(bytes32 indexed jobKey, address indexed sponsor, address indexed recipient, uint256 amount)
func (_BountyEscrow *BountyEscrowFilterer) WatchPayoutClaimed(opts *bind.WatchOpts, sink chan<- *BountyEscrowPayoutClaimed, jobKey [][32]byte, sponsor []common.Address, recipient []common.Address) (event.Subscription, error) {

	var jobKeyRule []interface{}
	for _, jobKeyItem := range jobKey {
		jobKeyRule = append(jobKeyRule, jobKeyItem)
	}
	var sponsorRule []interface{}
	for _, sponsorItem := range sponsor {
		sponsorRule = append(sponsorRule, sponsorItem)
	}
	var recipientRule []interface{}
	for _, recipientItem := range recipient {
		recipientRule = append(recipientRule, recipientItem)
	}

	logs, sub, err := _BountyEscrow.contract.WatchLogs(opts, "PayoutClaimed", jobKeyRule, sponsorRule, recipientRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(BountyEscrowPayoutClaimed)
				if err := _BountyEscrow.contract.UnpackLog(event, "PayoutClaimed", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParsePayoutClaimed is a log parse operation binding the contract event 0x96a0bda4b1c283cf8feeb70ec1fc51c1f830f0548dc9f740b8d885079be89106.
//
// Solidity: event PayoutClaimed(bytes32 indexed jobKey, address indexed sponsor, address indexed recipient, uint256 amount)
func (_BountyEscrow *BountyEscrowFilterer) ParsePayoutClaimed(log types.Log) (*BountyEscrowPayoutClaimed, error) {
	event := new(BountyEscrowPayoutClaimed)
	if err := _BountyEscrow.contract.UnpackLog(event, "PayoutClaimed", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
